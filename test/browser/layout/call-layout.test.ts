// The call's layout as a visitor sees it on a laptop and a phone: the disclosure banner clear of the self
// view, a placeholder where a turned-off camera was, and one row of equal round controls down to 320 px —
// also in an embed narrower than that phone (a 320 px page with margins).
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

async function widgetInCall(): Promise<PalWidget> {
  const service = useFakeService({ customization: { show_haircheck: false } });
  const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
  await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
  await el.startConversation();
  await waitFor(() => el.state === 'connected', { what: 'connected' });
  service.transports[0]!.receive({
    message_type: 'conversation',
    event_type: 'conversation.disclosure',
    conversation_id: 'c42',
    properties: {
      visual_disclosure: 'You are talking with an AI system, not a person. It can make mistakes.',
      verbal_disclosure: '',
      state: 'delivering',
    },
  });
  await waitFor(() => deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]:not([hidden])') !== null, { what: 'banner' });
  await waitFor(() => deep(el, 'pal-conversation', 'pal-stage', '[part=self]') !== null, { what: 'self view' });
  return el;
}

const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const [width, height] of [
  [1366, 800],
  [390, 844],
  [320, 640],
] as const) {
  describe(`call layout at ${width} px`, () => {
    before(() => setViewport({ width, height }));
    after(() => setViewport({ width: 800, height: 600 }));

    it('shows the disclosure banner, clear of the self view', async () => {
      const el = await widgetInCall();
      const banner = deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]')!.getBoundingClientRect();
      const self = deep(el, 'pal-conversation', 'pal-stage', '[part=self]')!.getBoundingClientRect();
      expect(banner.height, 'banner visible').to.be.greaterThan(20);
      expect(self.width, 'self view visible').to.be.greaterThan(40);
      expect(overlap(banner, self), `banner ${JSON.stringify(banner)} vs self ${JSON.stringify(self)}`).to.equal(false);
    });

    it('keeps a labelled placeholder tile when the camera is off', async () => {
      const el = await widgetInCall();
      const self = deep(el, 'pal-conversation', 'pal-stage', '[part=self]')!;
      expect(self.getAttribute('aria-label')).to.equal('Camera is off');
      expect(self.querySelector('svg')).to.not.equal(null);
    });

    it('draws every control as the same 44 px circle, in one row', async () => {
      const el = await widgetInCall();
      const controls = deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!;
      const boxes = [...controls.querySelectorAll<HTMLElement>('[role=toolbar] > button, [role=toolbar] summary')].map((b) =>
        b.getBoundingClientRect(),
      );
      expect(boxes.length).to.equal(6);
      for (const box of boxes) expect([Math.round(box.width), Math.round(box.height)]).to.deep.equal([44, 44]);
      expect(new Set(boxes.map((b) => Math.round(b.top))).size, 'one row').to.equal(1);
      const radius = getComputedStyle(controls.querySelector('summary')!).borderTopLeftRadius;
      expect(radius).to.equal(getComputedStyle(controls.querySelector('button')!).borderTopLeftRadius);
    });
  });
}

describe('call layout in a 288 px embed on a 320 px phone', () => {
  before(() => setViewport({ width: 320, height: 640 }));
  after(() => setViewport({ width: 800, height: 600 }));

  it('keeps the six controls in one row inside the embed, none cut off, and the notice inside it too', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:288px;height:512px;margin-left:16px"></div>`);
    wrapper.innerHTML = '<pal-embed deployment-id="d123"></pal-embed>';
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
    await el.startConversation();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    // The PAL cannot hear the visitor: the notice with its two buttons shows above the controls.
    service.transports[0]!.notice('hearing_unavailable');
    await waitFor(() => deep(el, 'pal-conversation', '.notice') !== null && deep(el, 'pal-conversation', 'pal-controls') !== null, {
      what: 'notice and controls',
    });
    const box = el.getBoundingClientRect();
    const controls = deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!;
    const boxes = [...controls.querySelectorAll<HTMLElement>('[role=toolbar] > button, [role=toolbar] summary')].map((b) =>
      b.getBoundingClientRect(),
    );
    expect(boxes.length).to.equal(6);
    for (const b of boxes) {
      expect(
        b.left >= box.left && b.right <= box.right,
        `control ${Math.round(b.left)}–${Math.round(b.right)} inside the embed ${box.left}–${box.right}`,
      ).to.equal(true);
      expect(Math.round(b.width), 'a round target at least 40 px wide').to.be.at.least(40);
      expect(Math.round(b.height)).to.equal(Math.round(b.width));
    }
    expect(new Set(boxes.map((b) => Math.round(b.top))).size, 'one row').to.equal(1);
    for (const button of deep(el, 'pal-conversation', '.notice')!.querySelectorAll('button')) {
      const b = button.getBoundingClientRect();
      expect(
        b.left >= box.left && b.right <= box.right,
        `notice button "${button.textContent}" ${Math.round(b.left)}–${Math.round(b.right)} inside the embed`,
      ).to.equal(true);
    }
  });
});
