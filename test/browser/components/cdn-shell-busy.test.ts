// Issue 25: a visitor who clicks the script-tag launcher (or the embed's Start) while the full code is still
// on its way sees at once that it is coming — the button is busy (aria-busy) and pulses — instead of
// nothing for the seconds a slow network takes. A page of its own: the full code's load is held here.
import { expect, fixture, html } from '@open-wc/testing';
import { defineShells, type FullModule } from '../../../src/palkit/cdn/shell.js';
import { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import { initBody } from '../../../stories/support/endpoints.js';
import { StandInTransport } from '../../../stories/support/transport.js';
import { waitFor } from '../helpers/wait-for.js';

let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => (release = resolve));
const realFetch = window.fetch.bind(window);

describe('script-tag shell while the full code loads', () => {
  before(() => {
    window.fetch = async (input, init) =>
      String(input).endsWith('/init')
        ? new Response(
            JSON.stringify(initBody({ customization: { widget: { text: 'Talk to Nova' }, preview: { btn_title: 'Start the call' } } })),
          )
        : realFetch(input, init);
    PalDeploymentElement.transportFactory = () => new StandInTransport();
    defineShells(async () => {
      await held;
      return (await import('../../../src/palkit/cdn-full.js')) as FullModule;
    }, 'http://cdn.test');
  });
  after(() => {
    window.fetch = realFetch;
  });

  it('marks the clicked launcher and Start busy at once, pulsing, and opens when the code arrives', async () => {
    const widget = await fixture<HTMLElement & { whenUpgraded(): Promise<HTMLElement & { opened: boolean }> }>(
      html`<pal-widget deployment-id="d1" api-base="http://pal.test"></pal-widget>`,
    );
    const embed = await fixture<HTMLElement>(
      html`<div style="width:400px;height:300px"><pal-embed deployment-id="d1" api-base="http://pal.test"></pal-embed></div>`,
    );
    const start = () => embed.querySelector('pal-embed')!.shadowRoot!.querySelector<HTMLButtonElement>('.p button');
    await waitFor(() => widget.shadowRoot!.querySelector('.l') !== null && start() !== null, { what: 'launcher and preview painted' });
    for (const button of [widget.shadowRoot!.querySelector<HTMLButtonElement>('.l')!, start()!]) {
      expect(button.getAttribute('aria-busy'), `${button.textContent} before the click`).to.equal(null);
      button.click();
      expect(button.getAttribute('aria-busy'), `${button.textContent} at once on click`).to.equal('true');
      const style = getComputedStyle(button);
      expect(style.animationName, `${button.textContent}: it pulses`).to.not.equal('none');
      expect(style.animationIterationCount, `${button.textContent}: until the code is here`).to.equal('infinite');
    }
    release();
    const upgraded = await widget.whenUpgraded();
    await waitFor(() => upgraded.opened, { what: 'the popup opens once the code is there' });
  });
});
