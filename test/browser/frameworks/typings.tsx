// Compile-time checks only (tsc over the tree): the React wrappers' props and `onPal…` handlers, the JSX
// typings of the raw tags, and the Vue GlobalComponents entries. A wrong type here fails `npm run typecheck`.
import type { GlobalComponents } from 'vue';
import { PalEmbed, PalWidget } from '../../../src/palkit/react/index.js';
import '../../../src/palkit/vue/index.js';

export const wrappers = (
  <>
    <PalEmbed deploymentId="d1" lang="de" onPalReady={(e) => e.detail.deploymentId.toUpperCase()} onPalError={(e) => e.detail.code} />
    <PalWidget deploymentId="d1" opened onPalModeChange={(e) => e.detail.mode} />
    {/* @ts-expect-error deploymentId is a string */}
    <PalEmbed deploymentId={42} />
    {/* @ts-expect-error the handler receives a PalReadyEvent */}
    <PalEmbed onPalReady={(e: { detail: number }) => e.detail} />
  </>
);

export const rawTags = (
  <>
    <pal-embed deployment-id="d1" expand-options='{"enabled":true}' layout="full-screen" />
    <pal-widget deployment-id="d1" open theme="dark" />
    <pal-conversation conversation-url="https://x/rooms/1" meeting-token="t" />
    <pal-transcript mode="captions" pal-name="Nova" />
    {/* @ts-expect-error mode is panel or captions */}
    <pal-transcript mode="sideways" />
  </>
);

type EmbedProps = InstanceType<GlobalComponents['pal-embed']>['$props'];
export const vueEmbed: EmbedProps = { deploymentId: 'd1', lang: 'fr', onPalReady: (e) => e.detail.deploymentId, onPalCanvasInteraction: (e) => e.detail };
// @ts-expect-error overrideConfig is a string
export const vueWrong: EmbedProps = { overrideConfig: 3 };
