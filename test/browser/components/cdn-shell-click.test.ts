// A real mouse click on the script-tag launcher opens the widget even when the full code arrives while the
// button is held down: the placeholder is swapped for the full launcher only once the click is dispatched.
// Swapped at pointerup, WebKit dropped the click (its target had left the document) and the panel stayed
// shut. A page of its own: the full code's load is held here until the button is down.
import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { defineShells, type FullModule } from '../../../src/palkit/cdn/shell.js';
import { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import { initBody } from '../../../stories/support/endpoints.js';
import { StandInTransport } from '../../../stories/support/transport.js';
import { nextTurn, waitFor } from '../helpers/wait-for.js';

let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => (release = resolve));
let arrived: () => void = () => undefined;
const loaded = new Promise<void>((resolve) => (arrived = resolve));
const realFetch = window.fetch.bind(window);

type Shell = HTMLElement & { whenUpgraded(): Promise<HTMLElement & { opened: boolean }> };

describe('script-tag launcher clicked while the full code arrives', () => {
  before(() => {
    window.fetch = async (input, init) =>
      String(input).endsWith('/init')
        ? new Response(JSON.stringify(initBody({ customization: { widget: { text: 'Talk to Nova' } } })))
        : realFetch(input, init);
    PalDeploymentElement.transportFactory = () => new StandInTransport();
    defineShells(async () => {
      await held;
      const full = (await import('../../../src/palkit/cdn-full.js')) as FullModule;
      arrived();
      return full;
    }, 'http://cdn.test');
  });
  after(async () => {
    window.fetch = realFetch;
    await resetMouse();
  });

  it('opens the panel on a mouse click whose button went down before the code arrived and up after', async () => {
    const widget = await fixture<Shell>(html`<pal-widget deployment-id="d1" api-base="http://pal.test"></pal-widget>`);
    await waitFor(() => widget.shadowRoot!.querySelector('.l') !== null, { what: 'the placeholder launcher' });
    const placeholder = widget.shadowRoot!.querySelector<HTMLButtonElement>('.l')!;
    const box = placeholder.getBoundingClientRect();
    const at: [number, number] = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];

    await sendMouse({ type: 'move', position: at });
    await sendMouse({ type: 'down' });
    release();
    await loaded;
    await customElements.whenDefined('pal-widget-impl');
    // A turn later the full element is made and waits for the button to come up: the placeholder stays.
    await nextTurn();
    expect(placeholder.isConnected, 'the placeholder stays while pressed').to.equal(true);

    await sendMouse({ type: 'up' });
    const upgraded = await widget.whenUpgraded();
    await waitFor(() => upgraded.opened, { what: 'the panel opened by the click', timeout: 3000 });
    expect(widget.shadowRoot!.firstElementChild).to.equal(upgraded);
  });
});
