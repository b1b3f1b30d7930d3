// The palkit/react wrappers in React 19 (react-dom/client): properties reach the element as properties,
// `onPal…` props receive the `pal-*` events, and the raw tags work too.
import { expect } from '@open-wc/testing';
import { createElement, act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { PalEmbed, PalWidget, PalTranscript } from '../../../src/palkit/react/index.js';
import { PalEmbed as EmbedElement } from '../../../src/palkit/components/embed/embed.js';
import type { PalWidget as WidgetElement } from '../../../src/palkit/components/widget/widget.js';
import type { PalTranscript as TranscriptElement } from '../../../src/palkit/components/transcript/transcript.js';
import type { PalReadyEvent, PalModeChangeEvent, PalStateChangeEvent } from '../../../src/palkit/components/events/index.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';
import { FakeLink } from '../protocol/fake-link.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('palkit/react', () => {
  let container: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    container = document.body.appendChild(document.createElement('div'));
    container.style.width = '1000px';
    root = createRoot(container);
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    container.remove();
  });

  it('PalEmbed sets properties and calls onPalReady / onPalStateChange / onPalModeChange', async () => {
    useFakeService({ customization: { show_haircheck: false } });
    const ready: PalReadyEvent[] = [];
    const states: string[] = [];
    const modes: string[] = [];
    let element: EmbedElement | null = null;
    await act(async () => {
      root.render(
        createElement(PalEmbed, {
          ref: (el: EmbedElement | null) => {
            element = el;
          },
          deploymentId: 'd123',
          customGreeting: 'Hallo!',
          onPalReady: (e: PalReadyEvent) => ready.push(e),
          onPalStateChange: (e: PalStateChangeEvent) => states.push(e.detail.state),
          onPalModeChange: (e: PalModeChangeEvent) => modes.push(e.detail.mode),
        }),
      );
    });
    const el = container.querySelector('pal-embed')!;
    expect(el).to.be.instanceOf(EmbedElement);
    expect(element).to.equal(el);
    expect((el as EmbedElement).customGreeting).to.equal('Hallo!');
    await waitFor(() => ready.length === 1, { what: 'onPalReady' });
    expect(ready[0]!.detail).to.deep.equal({ deploymentId: 'd123' });
    await (el as EmbedElement).updateComplete;
    deep(el, 'pal-preview', 'button')!.click();
    await waitFor(() => (el as EmbedElement).state === 'connected', { what: 'connected' });
    expect(states).to.include.members(['idle', 'connecting', 'connected']);
    expect(modes).to.deep.equal(['call']);
    await (el as EmbedElement).endConversation();
    expect(modes).to.deep.equal(['call', 'ended']);
  });

  it('replacing a handler prop replaces the listener (no stale or double calls)', async () => {
    useFakeService();
    const first: string[] = [];
    const second: string[] = [];
    const render = (handler: (e: PalStateChangeEvent) => void) =>
      act(async () => root.render(createElement(PalWidget, { deploymentId: 'd123', onPalStateChange: handler })));
    await render((e) => first.push(e.detail.state));
    const el = container.querySelector('pal-widget') as WidgetElement;
    await waitFor(() => el.state === 'idle', { what: 'idle' });
    await render((e) => second.push(e.detail.state));
    el.dispatchEvent(
      new CustomEvent('pal-state-change', { detail: { state: 'probe' }, bubbles: true, composed: true }) as unknown as PalStateChangeEvent,
    );
    expect(first).to.not.include('probe');
    expect(second).to.deep.equal(['probe']);
  });

  it('object properties (link) are passed as properties, not attributes', async () => {
    const link = new FakeLink();
    await act(async () => root.render(createElement(PalTranscript, { link, mode: 'panel', palName: 'Nova' })));
    const el = container.querySelector('pal-transcript') as TranscriptElement;
    expect(el.link).to.equal(link);
    expect(el.palName).to.equal('Nova');
    link.event('conversation.utterance', { role: 'replica', speech: 'Hello from Nova' });
    await el.updateComplete;
    expect(el.entries.map((e) => e.speech)).to.deep.equal(['Hello from Nova']);
  });

  it('raw tags render with kebab-case attributes (JSX typings in src/palkit/react/jsx.ts)', async () => {
    useFakeService();
    await act(async () => root.render(createElement('pal-embed', { 'deployment-id': 'd123', lang: 'de' })));
    const el = container.querySelector('pal-embed') as EmbedElement;
    expect(el.deploymentId).to.equal('d123');
    await waitFor(() => el.session?.deployment !== null && el.session?.state === 'idle', { what: 'init' });
    await el.updateComplete;
    const preview = deep(el, 'pal-preview') as HTMLElement & { updateComplete: Promise<void> };
    await preview.updateComplete;
    await waitFor(() => deep(preview, 'button')!.textContent!.trim() === 'Gespräch starten', { what: 'German start button' });
  });
});
