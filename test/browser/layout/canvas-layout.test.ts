// A Magic Canvas card in a call, on a laptop and a phone: clear of the self view, its submit button
// always on screen (the card's body scrolls, not its actions).
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

const options = Array.from({ length: 9 }, (_, i) => ({ id: `opt_${i + 1}`, label: `Option number ${i + 1} with a longer label` }));
const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const [width, height] of [
  [1366, 800],
  [390, 844],
] as const) {
  describe(`canvas card layout at ${width} px`, () => {
    before(() => setViewport({ width, height }));
    after(() => setViewport({ width: 800, height: 600 }));

    it('keeps a long question card clear of the self view, with its submit button visible', async () => {
      const service = useFakeService({ customization: { show_haircheck: false } });
      const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
      await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
      await el.startConversation();
      await waitFor(() => el.state === 'connected', { what: 'connected' });
      service.transports[0]!.receive({
        message_type: 'conversation',
        event_type: 'conversation.tool_call',
        conversation_id: 'c42',
        properties: {
          name: 'canvas_show_question',
          arguments: JSON.stringify({ question: 'Which of these fits your riding best?', options }),
          tool_call_id: 'tc1',
        },
      });
      await waitFor(() => deep(el, 'pal-conversation', 'pal-canvas', '[part=card]') !== null, { what: 'card' });
      const canvas = deep(el, 'pal-conversation', 'pal-canvas')!;
      await Promise.all(canvas.shadowRoot!.getAnimations().map((a) => a.finished.catch(() => undefined)));
      const card = deep(el, 'pal-conversation', 'pal-canvas', '[part=card]')!.getBoundingClientRect();
      const self = deep(el, 'pal-conversation', 'pal-stage', '[part=self]')!.getBoundingClientRect();
      const submit = deep(el, 'pal-conversation', 'pal-canvas', 'button[type=submit]')!.getBoundingClientRect();
      expect(overlap(card, self), `card ${JSON.stringify(card)} vs self ${JSON.stringify(self)}`).to.equal(false);
      expect(submit.height).to.be.greaterThan(20);
      expect(
        submit.top >= card.top && submit.bottom <= card.bottom + 0.5,
        `submit ${JSON.stringify(submit)} inside card ${JSON.stringify(card)}`,
      ).to.equal(true);
      const controls = deep(el, 'pal-conversation', 'pal-controls')!.getBoundingClientRect();
      expect(card.bottom).to.be.at.most(controls.top);
    });
  });
}
