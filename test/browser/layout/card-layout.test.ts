// Issue 25, item 2: a calendar card never covers the PAL's face and shows its four slots whole — in the
// embed at 1366 px (a 960 × 540 frame, as on the demo's product page), in a 620 px wide 16:9 embed, in the
// embed and the widget's full-screen sheet on a 390 px phone, and in the widget's popup on a laptop.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { TemplateResult } from 'lit';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

// A 16:9 frame as the built-in face Ada and trained faces' footage are: her head fills x 370–590,
// y 110–370 of 960 × 540 (src/face-drawing/ada.ts).
const FRAME = { width: 960, height: 540 };
const HEAD = { left: 370, top: 110, right: 590, bottom: 370 };
const FACE = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540"><rect width="960" height="540" fill="#345"/><ellipse cx="480" cy="240" rx="110" ry="130" fill="#f2c7a5"/></svg>`)}`;
const SLOTS = ['2030-05-14T10:00:00Z', '2030-05-14T14:00:00Z', '2030-05-15T10:00:00Z', '2030-05-15T14:00:00Z'];
const MIN_CARD_HEIGHT = 200;

type Surface = PalEmbed | PalWidget;

/** Where the head lands on screen: the frame scaled by the tile's object-fit (centred, as object-position). */
function faceBox(img: HTMLImageElement): DOMRect {
  const box = img.getBoundingClientRect();
  const fit = getComputedStyle(img).objectFit;
  const scale = (fit === 'contain' ? Math.min : Math.max)(box.width / FRAME.width, box.height / FRAME.height);
  const left = box.left + (box.width - FRAME.width * scale) / 2;
  const top = box.top + (box.height - FRAME.height * scale) / 2;
  return new DOMRect(left + HEAD.left * scale, top + HEAD.top * scale, (HEAD.right - HEAD.left) * scale, (HEAD.bottom - HEAD.top) * scale);
}

const overlap = (a: DOMRect, b: DOMRect) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const inside = (a: DOMRect, b: DOMRect) =>
  a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
const show = (r: DOMRect) =>
  JSON.stringify({ l: Math.round(r.left), t: Math.round(r.top), r: Math.round(r.right), b: Math.round(r.bottom) });

async function inCall(template: TemplateResult, tag: 'pal-embed' | 'pal-widget'): Promise<Surface> {
  const service = useFakeService({ customization: { show_haircheck: false }, thumbnail_image_url: FACE });
  const root = await fixture<HTMLElement>(template);
  const el = (root.matches(tag) ? root : root.querySelector(tag)!) as Surface;
  await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
  await el.startConversation();
  await waitFor(() => el.state === 'connected', { what: 'connected' });
  // The AI disclosure banner is on screen, as in every demo call.
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
  service.transports[0]!.receive({
    message_type: 'conversation',
    event_type: 'conversation.tool_call',
    conversation_id: 'c42',
    properties: {
      name: 'canvas_show_calendar',
      arguments: JSON.stringify({
        title: 'Pick a time that suits you',
        mode: 'slot_picker',
        slots: SLOTS,
        layout: { preferred_slot: 'safe-area-right' },
      }),
      tool_call_id: 'tc1',
    },
  });
  await waitFor(() => deep(el, 'pal-conversation', 'pal-canvas', '[part=card]') !== null, { what: 'card' });
  const img = deep<HTMLImageElement>(el, 'pal-conversation', 'pal-stage', 'img.pal')!;
  await waitFor(() => img.complete && img.naturalWidth > 0, { what: 'face loaded' });
  const canvas = deep(el, 'pal-conversation', 'pal-canvas')!;
  await Promise.all(canvas.shadowRoot!.getAnimations().map((a) => a.finished.catch(() => undefined)));
  await new Promise((r) => requestAnimationFrame(r));
  return el;
}

async function expectUsableCard(el: Surface): Promise<void> {
  const card = deep(el, 'pal-conversation', 'pal-canvas', '[part=card]')!;
  const cardBox = card.getBoundingClientRect();
  const face = faceBox(deep<HTMLImageElement>(el, 'pal-conversation', 'pal-stage', 'img.pal')!);
  const stage = deep(el, 'pal-conversation', 'pal-stage')!.getBoundingClientRect();
  expect(overlap(cardBox, face), `card ${show(cardBox)} vs face ${show(face)}`).to.equal(false);
  expect(inside(face, stage), `face ${show(face)} shown whole on the stage ${show(stage)}`).to.equal(true);
  expect(cardBox.height, `card ${show(cardBox)}`).to.be.at.least(MIN_CARD_HEIGHT);
  const viewport = new DOMRect(0, 0, innerWidth, innerHeight);
  const slots = [...card.querySelectorAll('label.choice')];
  expect(slots.length).to.equal(4);
  for (const slot of [...slots, card.querySelector('button[type=submit]')!]) {
    const box = slot.getBoundingClientRect();
    expect(box.height, 'drawn').to.be.greaterThan(20);
    expect(inside(box, cardBox), `${slot.textContent!.trim()} ${show(box)} not clipped by the card ${show(cardBox)}`).to.equal(true);
    expect(inside(box, viewport), `${slot.textContent!.trim()} ${show(box)} inside the viewport`).to.equal(true);
  }
}

const embedIn = (style: string) => html`<div style=${style}><pal-embed deployment-id="d123"></pal-embed></div>`;

const cases: [string, number, number, () => TemplateResult, 'pal-embed' | 'pal-widget'][] = [
  ['embed in a 960 × 540 frame at 1366 px', 1366, 800, () => embedIn('width: 960px; height: 540px'), 'pal-embed'],
  ['embed in a 620 × 349 frame', 800, 600, () => embedIn('width: 620px; height: 349px'), 'pal-embed'],
  ['9:16 embed at 390 px', 390, 844, () => embedIn('width: 358px; height: 636px'), 'pal-embed'],
  ['widget sheet at 390 px', 390, 844, () => html`<pal-widget deployment-id="d123"></pal-widget>`, 'pal-widget'],
  ['widget popup at 1366 px', 1366, 800, () => html`<pal-widget deployment-id="d123"></pal-widget>`, 'pal-widget'],
];

for (const [name, width, height, template, tag] of cases) {
  describe(`calendar card: ${name}`, () => {
    before(() => setViewport({ width, height }));
    after(() => setViewport({ width: 800, height: 600 }));

    it(`keeps the face clear and shows all four slots in a card at least ${MIN_CARD_HEIGHT} px tall`, async () => {
      await expectUsableCard(await inCall(template(), tag));
    });
  });
}
