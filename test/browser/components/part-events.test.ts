// The parts' own events (pal-start, pal-confirm, pal-retry, …) are typed `pal-` event classes that bubble
// to the element rendering the part and stop at its shadow root: the page hears only the host page
// contract's events.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/palkit/components/define.js';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { PalStartEvent } from '../../../src/palkit/components/events/start.js';
import { PalRetryEvent } from '../../../src/palkit/components/events/retry.js';
import type { PalErrorScreen } from '../../../src/palkit/components/screens/error-screen.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

describe('the parts’ own events', () => {
  it('pal-start from the preview reaches the embed (which starts) and not the page', async () => {
    useFakeService({ customization: { show_haircheck: false } });
    const onPage: string[] = [];
    const listen = (e: Event) => onPage.push(e.type);
    for (const type of ['pal-start', 'start']) document.addEventListener(type, listen);
    try {
      const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
      const el = wrapper.querySelector('pal-embed') as PalEmbed;
      await waitFor(() => el.session?.state === 'idle');
      await el.updateComplete;
      const inShadow: Event[] = [];
      el.shadowRoot!.addEventListener('pal-start', (e) => inShadow.push(e));
      deep(el, 'pal-preview', '[part=start]')!.click();
      await waitFor(() => el.mode === 'call', { what: 'the call starts' });
      expect(inShadow).to.have.length(1);
      expect(inShadow[0]).to.be.instanceOf(PalStartEvent);
      expect([inShadow[0]!.bubbles, inShadow[0]!.composed]).to.deep.equal([true, false]);
      expect(onPage).to.deep.equal([]);
    } finally {
      for (const type of ['pal-start', 'start']) document.removeEventListener(type, listen);
    }
  });

  it('a part used on its own is heard by the page (pal-retry bubbles from the error screen)', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div><pal-error-screen code="network_error"></pal-error-screen></div>`);
    const screen = wrapper.querySelector('pal-error-screen') as PalErrorScreen;
    await screen.updateComplete;
    const heard: Event[] = [];
    wrapper.addEventListener('pal-retry', (e) => heard.push(e));
    deep(screen, '[part=retry]')!.click();
    expect(heard).to.have.length(1);
    expect(heard[0]).to.be.instanceOf(PalRetryEvent);
  });
});
