// Compile-time checks only (tsc over the tree): the React wrappers' props and `onPal…` handlers, the JSX
// typings of the raw tags, and the Vue GlobalComponents entries. A wrong type here fails `npm run typecheck`.
import type { GlobalComponents } from 'vue';
import { PalEmbed, PalGate, PalPreview, PalWidget } from '../../../src/palkit/react/index.js';
import '../../../src/palkit/vue/index.js';
import type { PalEventMap } from '../../../src/palkit/index.js';

export const wrappers = (
  <>
    <PalEmbed deploymentId="d1" lang="de" onPalReady={(e) => e.detail.deploymentId.toUpperCase()} onPalError={(e) => e.detail.code} />
    <PalWidget deploymentId="d1" opened onPalModeChange={(e) => e.detail.mode} />
    {/* @ts-expect-error deploymentId is a string */}
    <PalEmbed deploymentId={42} />
    {/* @ts-expect-error the handler receives a PalReadyEvent */}
    <PalEmbed onPalReady={(e: { detail: number }) => e.detail} />
    {/* The parts' own events are typed props too (generated from the manifest). */}
    <PalPreview onPalStart={(e) => e.detail.acceptedTerms?.toUpperCase()} />
    <PalGate onPalPassword={(e) => e.detail.password.length} onPalCaptchaUnavailable={(e) => e.detail === null} />
    {/* @ts-expect-error a pal-start detail has no password */}
    <PalPreview onPalStart={(e) => e.detail.password} />
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
export const vueEmbed: EmbedProps = {
  deploymentId: 'd1',
  lang: 'fr',
  onPalReady: (e) => e.detail.deploymentId,
  onPalCanvasInteraction: (e) => e.detail,
};
// @ts-expect-error overrideConfig is a string
export const vueWrong: EmbedProps = { overrideConfig: 3 };

// The parts' own events are typed on addEventListener (HTMLElementEventMap).
export function listens(preview: HTMLElementTagNameMap['pal-preview'], controls: HTMLElementTagNameMap['pal-controls']): void {
  preview.addEventListener('pal-start', (e) => e.detail.text === true);
  controls.addEventListener('pal-control', (e) => e.detail.action === 'end');
  // @ts-expect-error a control's action is one of the controls
  controls.addEventListener('pal-control', (e) => e.detail.action === 'dance');
}

// PalEventMap names every palkit event, the page's and the parts'.
export const startText = (e: PalEventMap['pal-start']): boolean | undefined => e.detail.text;
export const readyId = (e: PalEventMap['pal-ready']): string => e.detail.deploymentId;
// @ts-expect-error not a palkit event
export type NotOurs = PalEventMap['click'];
