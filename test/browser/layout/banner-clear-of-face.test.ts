// Issue 25: on a surface narrower than 360 px with the chat closed, the AI disclosure banner wrapped beside
// the self view to three or four lines over the top of the stage and covered the PAL's hair down to her
// brows. There it takes its own row above the stage: nothing of her picture is under it.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

const FACE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640"><rect width="480" height="640" fill="#345"/><circle cx="240" cy="230" r="190" fill="#e0b49a"/></svg>')}`;

const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const rect = (r: DOMRect) =>
  JSON.stringify({ l: Math.round(r.left), t: Math.round(r.top), r: Math.round(r.right), b: Math.round(r.bottom) });

async function inCallWithBanner(el: PalDeploymentElement, service: ReturnType<typeof useFakeService>): Promise<void> {
  await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
  service.transportFactoryHook = (t) => (t.palImageUrl = FACE);
  await el.startConversation();
  await waitFor(() => el.state === 'connected', { what: 'connected' });
  service.transports[0]!.receive({
    message_type: 'conversation',
    event_type: 'conversation.disclosure',
    conversation_id: 'c42',
    properties: { visual_disclosure: 'You are interacting with an AI system.', verbal_disclosure: '', state: 'delivering' },
  });
  await waitFor(() => deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]:not([hidden])') !== null, { what: 'banner' });
  const img = deep<HTMLImageElement>(el, 'pal-conversation', 'pal-stage', 'img.pal')!;
  await waitFor(() => img.complete && img.naturalWidth > 0, { what: 'face loaded' });
}

function expectBannerClearOfHer(el: PalDeploymentElement): void {
  const picture = deep(el, 'pal-conversation', 'pal-stage', 'img.pal')!.getBoundingClientRect();
  const banner = deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]')!.getBoundingClientRect();
  expect(banner.height, 'banner shown').to.be.greaterThan(20);
  expect(overlap(picture, banner), `her picture ${rect(picture)} vs banner ${rect(banner)}`).to.equal(false);
  expect(picture.height, 'the stage keeps most of the height').to.be.at.least(300);
}

describe('the AI disclosure banner with the chat closed on a 320 px phone', () => {
  before(() => setViewport({ width: 320, height: 640 }));
  after(() => setViewport({ width: 800, height: 600 }));

  it('sits above the PAL in the widget, not over her hair', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const el = await fixture<PalDeploymentElement>(html`<pal-widget deployment-id="d123"></pal-widget>`);
    await inCallWithBanner(el, service);
    expectBannerClearOfHer(el);
  });

  it('sits above the PAL in a 288 px embed too', async () => {
    const service = useFakeService({ channel: 'embed', customization: { show_haircheck: false } });
    const box = await fixture<HTMLDivElement>(
      html`<div style="width:288px;height:512px;margin-left:16px"><pal-embed deployment-id="d123"></pal-embed></div>`,
    );
    const el = box.querySelector('pal-embed') as PalDeploymentElement;
    await inCallWithBanner(el, service);
    expectBannerClearOfHer(el);
  });
});
