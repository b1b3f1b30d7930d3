// Issue 25, item 3: with the chat open in the widget the PAL stays in view — whole, above the chat panel,
// clear of the self view and of the AI disclosure banner — on a laptop (the 400 × 640 popup) and on phones
// (the full-screen sheet, 390 and 320 px); the chat's toolbar fits; and the reply being spoken has its
// transcript row from its first words.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import type { PalTranscript } from '../../../src/palkit/components/transcript/transcript.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

// A portrait face, as trained faces' thumbnails are: her eyes sit in the upper third.
const FACE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640"><rect width="480" height="640" fill="#345"/><circle cx="240" cy="260" r="150" fill="#e0b49a"/></svg>')}`;

async function widgetWithChatOpen(options: { disclosure?: boolean } = {}): Promise<PalWidget> {
  const service = useFakeService({ customization: { show_haircheck: false } });
  const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
  await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
  service.transportFactoryHook = (t) => (t.palImageUrl = FACE);
  await el.startConversation();
  await waitFor(() => el.state === 'connected', { what: 'connected' });
  await waitFor(
    () =>
      deep(el, 'pal-conversation', 'pal-stage', 'img.pal') !== null && deep(el, 'pal-conversation', 'pal-stage', '[part=self]') !== null,
    { what: 'face and self view' },
  );
  if (options.disclosure) {
    service.transports[0]!.receive({
      message_type: 'conversation',
      event_type: 'conversation.disclosure',
      conversation_id: 'c42',
      properties: { visual_disclosure: 'You are interacting with an AI system.', verbal_disclosure: '', state: 'delivering' },
    });
    await waitFor(() => deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]:not([hidden])') !== null, { what: 'banner' });
  }
  const controls = deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!;
  [...controls.querySelectorAll<HTMLButtonElement>('button')]
    .find((b) => b.getAttribute('aria-label') === 'Chat' || b.textContent?.includes('Chat'))!
    .click();
  await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.panel:not([hidden])') !== null, { what: 'chat open' });
  return el;
}

/** The part of an <img> that object-fit leaves showing the picture. */
function picture(img: HTMLImageElement): DOMRect {
  const box = img.getBoundingClientRect();
  const fit = getComputedStyle(img).objectFit;
  const scale = (fit === 'contain' ? Math.min : Math.max)(box.width / img.naturalWidth, box.height / img.naturalHeight);
  const w = img.naturalWidth * scale;
  const h = img.naturalHeight * scale;
  return new DOMRect(box.left + (box.width - w) / 2, box.top + (box.height - h) / 2, w, h);
}

const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const rect = (r: DOMRect) =>
  JSON.stringify({ l: Math.round(r.left), t: Math.round(r.top), r: Math.round(r.right), b: Math.round(r.bottom) });

for (const [width, height] of [
  [1366, 800],
  [390, 844],
  [320, 640],
] as const) {
  describe(`widget with the chat open at ${width} px`, () => {
    before(() => setViewport({ width, height }));
    after(() => setViewport({ width: 800, height: 600 }));

    it('keeps the PAL whole, above the chat panel and clear of the self view', async () => {
      const el = await widgetWithChatOpen();
      const img = deep<HTMLImageElement>(el, 'pal-conversation', 'pal-stage', 'img.pal')!;
      await waitFor(() => img.complete && img.naturalWidth > 0, { what: 'face loaded' });
      const face = picture(img);
      const shown = img.getBoundingClientRect();
      const panel = deep(el, 'pal-conversation', 'pal-transcript.panel')!.getBoundingClientRect();
      const self = deep(el, 'pal-conversation', 'pal-stage', '[part=self]')!.getBoundingClientRect();
      // The whole picture is on screen (not cropped by the tile) and nothing covers it.
      expect(face.top, `face ${rect(face)} within its tile ${rect(shown)}`).to.be.at.least(shown.top - 1);
      expect(face.bottom).to.be.at.most(shown.bottom + 1);
      expect(face.bottom, `face ${rect(face)} above the panel ${rect(panel)}`).to.be.at.most(panel.top + 1);
      expect(overlap(face, self), `face ${rect(face)} vs self view ${rect(self)}`).to.equal(false);
      expect(face.height, 'big enough to see her').to.be.at.least(width === 320 ? 120 : 150);
    });

    it('keeps her face clear of the AI disclosure banner, which stays in view', async () => {
      const el = await widgetWithChatOpen({ disclosure: true });
      const img = deep<HTMLImageElement>(el, 'pal-conversation', 'pal-stage', 'img.pal')!;
      await waitFor(() => img.complete && img.naturalWidth > 0, { what: 'face loaded' });
      const face = picture(img);
      const banner = deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]')!.getBoundingClientRect();
      const panel = deep(el, 'pal-conversation', 'pal-transcript.panel')!.getBoundingClientRect();
      const popup = deep(el, 'dialog')!.getBoundingClientRect();
      expect(banner.height, 'banner shown').to.be.greaterThan(20);
      expect(banner.top).to.be.at.least(popup.top);
      expect(banner.bottom, `banner ${rect(banner)} in the popup ${rect(popup)}`).to.be.at.most(popup.bottom);
      expect(overlap(face, banner), `face ${rect(face)} vs banner ${rect(banner)}`).to.equal(false);
      expect(overlap(panel, banner), `chat panel ${rect(panel)} vs banner ${rect(banner)}`).to.equal(false);
      expect(face.height, 'big enough to see her').to.be.at.least(width === 320 ? 120 : 150);
    });

    it('fits the chat toolbar (voice/text switch and downloads) inside the panel', async () => {
      const el = await widgetWithChatOpen();
      const panel = deep(el, 'pal-conversation', 'pal-transcript.panel')!;
      const box = panel.getBoundingClientRect();
      const buttons = [
        deep(el, 'pal-conversation', '[part=mode-switch]')!,
        ...panel.shadowRoot!.querySelectorAll<HTMLElement>('.toolbar button'),
      ];
      expect(buttons.length).to.equal(3);
      for (const button of buttons) {
        const b = button.getBoundingClientRect();
        expect(
          b.left >= box.left - 0.5 && b.right <= box.right + 0.5,
          `"${button.textContent!.trim()}" ${rect(b)} inside the panel ${rect(box)}`,
        ).to.equal(true);
        expect(button.scrollWidth, `"${button.textContent!.trim()}" not cut`).to.be.at.most(button.clientWidth + 1);
      }
    });

    it('shows the reply being spoken in the chat from its first words', async () => {
      const el = await widgetWithChatOpen();
      el.session!.dispatchEvent(
        new (await import('../../../src/palkit/client/link.js')).LinkMessageEvent({
          message_type: 'conversation',
          event_type: 'conversation.utterance.streaming',
          conversation_id: 'c42',
          inference_id: 'r1',
          properties: { role: 'replica', speech: 'We open at nine', final: false },
        }),
      );
      const panel = deep(el, 'pal-conversation', 'pal-transcript.panel') as unknown as PalTranscript;
      await waitFor(() => panel.shadowRoot!.querySelectorAll('li').length === 1, { what: 'a row for the reply being spoken' });
      expect(panel.shadowRoot!.querySelector('li .bubble')!.textContent!.trim()).to.equal('We open at nine');
    });
  });
}
