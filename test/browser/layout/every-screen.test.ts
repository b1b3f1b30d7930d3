// Issue 54, item 4: every screen fits — at 320, 390, 768 and 1366 px, the widget and the embed (in the demo's
// frame at that width), chat on and off, a Magic Canvas card shown or not, each with the AI disclosure banner
// and a notice on (the states that take rows). Measured, not looked at: the PAL's stage keeps at least a third
// of the call's height and no card covers it; with the chat on its newest message, three lines of its log and
// the message box are visible; a card is readable (100 px) or a chip the visitor expands; the disclosure wraps,
// read whole (never cut), with its close button; the notice takes one line; captions keep off her stage when
// a card is under it; the AI mark is on her stage, away from the self view; the chat's toolbar is one row;
// every control is on screen and whole.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { TemplateResult } from 'lit';
import type { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import { LinkMessageEvent } from '../../../src/palkit/client/link.js';
import { waitFor } from '../helpers/wait-for.js';
import { inside, onTop, overlap, show } from '../helpers/boxes.js';
import { deep, openChat, useFakeService } from '../helpers/deployment.js';

const FACE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540"><rect width="960" height="540" fill="#345"/><ellipse cx="480" cy="240" rx="110" ry="130" fill="#f2c7a5"/></svg>')}`;
const OPTIONS = Array.from({ length: 9 }, (_, i) => ({ id: `opt_${i + 1}`, label: `Option number ${i + 1} with a longer label` }));

/** The viewports, and the demo's frame for the embed there (demo.css: 9:16 up to 700 px, 16:9 to 960 px wide). */
const SCREENS = [
  { width: 320, height: 640, frame: [288, 512] },
  { width: 390, height: 844, frame: [358, 636] },
  { width: 768, height: 1024, frame: [704, 396] },
  { width: 1366, height: 800, frame: [960, 540] },
] as const;

interface State {
  surface: 'pal-widget' | 'pal-embed';
  chat: boolean;
  card: boolean;
}

async function callIn(screen: (typeof SCREENS)[number], state: State): Promise<PalDeploymentElement> {
  const service = useFakeService({ channel: state.surface === 'pal-embed' ? 'embed' : 'widget', customization: { show_haircheck: false } });
  const template: TemplateResult =
    state.surface === 'pal-embed'
      ? html`<div style="width:${screen.frame[0]}px;height:${screen.frame[1]}px"><pal-embed deployment-id="d123"></pal-embed></div>`
      : html`<pal-widget deployment-id="d123"></pal-widget>`;
  const box = await fixture<HTMLElement>(template);
  const el = (box.localName === 'pal-widget' ? box : box.querySelector('pal-embed')!) as PalDeploymentElement;
  await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
  service.transportFactoryHook = (t) => (t.palImageUrl = FACE);
  await el.startConversation();
  await waitFor(() => el.state === 'connected' && deep(el, 'pal-conversation', 'pal-controls') !== null, { what: 'connected' });
  const transport = service.transports[0]!;
  const send = (event_type: string, properties: Record<string, unknown>) =>
    transport.receive({ message_type: 'conversation', event_type, conversation_id: 'c42', properties } as never);
  send('conversation.disclosure', {
    visual_disclosure: 'You are talking with an AI system, not a person. It can make mistakes.',
    verbal_disclosure: '',
    state: 'delivering',
  });
  send('conversation.disclosure', { visual_disclosure: '', verbal_disclosure: '', state: 'delivered' });
  // A notice that stays beside the open chat (the voice's); with the chat closed, the widest one (its "Type a
  // message" button). The hearing notice steps aside in the chat (parts.test.ts).
  transport.notice(state.chat ? 'voice_unavailable' : 'hearing_unavailable');
  for (let i = 0; i < 6; i++)
    send('conversation.utterance', { role: i % 2 ? 'user' : 'replica', speech: `Message ${i}: ${'and a few more words '.repeat(i)}` });
  el.session!.dispatchEvent(
    new LinkMessageEvent({
      message_type: 'conversation',
      event_type: 'conversation.utterance',
      conversation_id: 'c42',
      inference_id: 'last',
      properties: { role: 'replica', speech: 'The newest message.' },
    } as never),
  );
  if (state.card)
    send('conversation.tool_call', {
      name: 'canvas_show_question',
      arguments: JSON.stringify({ question: 'Which of these fits your riding best?', options: OPTIONS }),
      tool_call_id: 'tc1',
    });
  await waitFor(
    () =>
      deep(el, 'pal-conversation', 'pal-disclosure', '[part=dismiss]') !== null &&
      deep(el, 'pal-conversation', '.notice') !== null &&
      (!state.card || deep(el, 'pal-conversation', 'pal-canvas', '[part=card]') !== null),
    { what: 'banner, notice and card' },
  );
  if (state.chat) {
    openChat(el);
    await waitFor(
      () =>
        deep(el, 'pal-conversation', 'pal-transcript.panel:not([hidden])')
          ?.shadowRoot?.querySelector('li:last-child')
          ?.textContent?.includes('The newest message.') === true,
      { what: 'chat open' },
    );
  }
  const img = deep<HTMLImageElement>(el, 'pal-conversation', 'pal-stage', 'img.pal')!;
  await waitFor(() => img.complete && img.naturalWidth > 0, { what: 'face loaded' });
  const canvas = deep(el, 'pal-conversation', 'pal-canvas')!;
  await Promise.all(canvas.shadowRoot!.getAnimations().map((a) => a.finished.catch(() => undefined)));
  await new Promise((r) => requestAnimationFrame(r));
  await new Promise((r) => requestAnimationFrame(r));
  return el;
}

function expectFits(el: PalDeploymentElement, state: State): void {
  const conversation = deep(el, 'pal-conversation')!;
  const call = conversation.getBoundingClientRect();
  const viewport = new DOMRect(0, 0, innerWidth, innerHeight);
  expect(inside(call, viewport), `the call ${show(call)} on screen ${show(viewport)}`).to.equal(true);

  // The PAL: a third of the call's height at least, nothing of the layout over her.
  const stage = deep(el, 'pal-conversation', 'pal-stage')!.getBoundingClientRect();
  expect(stage.height, `her stage ${show(stage)} in the call ${show(call)}`).to.be.at.least(call.height / 3 - 1);
  const covering = [deep(el, 'pal-conversation', '.notice')!, deep(el, 'pal-conversation', 'pal-controls')!];
  if (state.card) covering.push(deep(el, 'pal-conversation', 'pal-canvas', '[part=card]')!);
  if (state.chat) covering.push(deep(el, 'pal-conversation', 'pal-transcript.panel')!);
  for (const part of covering) {
    const box = part.getBoundingClientRect();
    expect(
      overlap(box, stage),
      `${part.localName}.${part.className || part.getAttribute('part')} ${show(box)} clear of her stage ${show(stage)}`,
    ).to.equal(false);
  }

  // A card shows, inside the call: readable (its room scrolls inside), or where the chat leaves it a strip, a
  // one-line chip with its title and a "Show" button whole.
  if (state.card) {
    const card = deep(el, 'pal-conversation', 'pal-canvas', '[part=card]')!;
    const cardBox = card.getBoundingClientRect();
    const chip = card.querySelector('.chip-open');
    if (chip) {
      const chipBox = chip.getBoundingClientRect();
      expect(chipBox.height, `the chip ${show(chipBox)}`).to.be.at.least(32);
      expect(inside(chipBox, call) && onTop(chip), `the chip ${show(chipBox)} whole and uncovered`).to.equal(true);
    } else expect(cardBox.height, `the card ${show(cardBox)}`).to.be.at.least(100);
    expect(inside(cardBox, call), `the card ${show(cardBox)} inside the call ${show(call)}`).to.equal(true);
    // Under her (the narrow layouts), captions take a row of their own: none over her mouth.
    const caption = deep(el, 'pal-conversation', 'pal-transcript.captions', '[part=captions]');
    if (!state.chat && cardBox.top >= stage.bottom - 0.5 && caption && !caption.hidden) {
      const captionBox = caption.getBoundingClientRect();
      expect(captionBox.height, 'a caption shown').to.be.greaterThan(10);
      expect(overlap(captionBox, stage), `the caption ${show(captionBox)} off her stage ${show(stage)}`).to.equal(false);
    }
  }

  // The AI mark: on her stage, not in the self view's column (there it read as labelling the visitor).
  const mark = deep(el, 'pal-conversation', 'pal-stage', '[part=ai-mark]')!.getBoundingClientRect();
  const self = deep(el, 'pal-conversation', 'pal-stage', '[part=self]')!.getBoundingClientRect();
  expect(inside(mark, stage), `the AI mark ${show(mark)} on her stage ${show(stage)}`).to.equal(true);
  expect(mark.right, `the AI mark ${show(mark)} clear of the self view's column ${show(self)}`).to.be.below(self.left);

  // The disclosure read whole (wrapped, never cut), its close button in the banner; the notice one line.
  const banner = deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]')!;
  const bannerBox = banner.getBoundingClientRect();
  const lineOf = (element: Element) => parseFloat(getComputedStyle(element).lineHeight);
  const text = deep(el, 'pal-conversation', 'pal-disclosure', '[part=text]')!;
  expect(text.scrollWidth, 'the disclosure not cut at its end').to.be.at.most(text.clientWidth + 1);
  expect(getComputedStyle(text).textOverflow, 'no ellipsis').to.not.equal('ellipsis');
  expect(banner.scrollHeight, 'the disclosure whole in the banner').to.be.at.most(banner.clientHeight + 1);
  const dismiss = deep(el, 'pal-conversation', 'pal-disclosure', '[part=dismiss]')!.getBoundingClientRect();
  expect(inside(dismiss, bannerBox), `its close button ${show(dismiss)} in the banner ${show(bannerBox)}`).to.equal(true);
  expect(inside(bannerBox, call), `the banner ${show(bannerBox)} in the call`).to.equal(true);
  const notice = deep(el, 'pal-conversation', '.notice')!;
  const words = notice.querySelector('.words')!;
  expect(words.getBoundingClientRect().height, 'the notice: one line').to.be.at.most(lineOf(words) * 1.2);
  const noticeButtons = [...notice.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
  expect(new Set(noticeButtons.map((b) => Math.round(b.top + b.height / 2))).size, 'its words and buttons on one row').to.equal(1);
  for (const b of noticeButtons) expect(inside(b, call), `a notice button ${show(b)} in the call`).to.equal(true);
  expect(notice.getBoundingClientRect().height).to.be.at.most(60);

  // Every control whole, on screen, in one row.
  const toolbar = deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!;
  const controls = [...toolbar.querySelectorAll<HTMLElement>('[role=toolbar] > button, [role=toolbar] summary')];
  expect(controls.length).to.equal(6);
  for (const control of controls) {
    const b = control.getBoundingClientRect();
    expect(inside(b, call) && inside(b, viewport), `control ${control.getAttribute('aria-label')} ${show(b)} whole on screen`).to.equal(
      true,
    );
    expect(onTop(control), `control ${control.getAttribute('aria-label')} not covered`).to.equal(true);
  }
  expect(new Set(controls.map((c) => Math.round(c.getBoundingClientRect().top))).size, 'one row of controls').to.equal(1);

  if (!state.chat) return;
  // The chat: its newest message and the message box in view, its toolbar one row.
  const panel = deep(el, 'pal-conversation', 'pal-transcript.panel')!;
  const log = panel.shadowRoot!.querySelector('.scroller')!.getBoundingClientRect();
  const newest = [...panel.shadowRoot!.querySelectorAll('li')].at(-1)!;
  expect(newest.textContent).to.contain('The newest message.');
  const bubble = newest.querySelector('.bubble')!.getBoundingClientRect();
  expect(inside(bubble, log), `the newest message ${show(bubble)} in the visible log ${show(log)}`).to.equal(true);
  expect(log.height, `the log ${show(log)}: three lines at least`).to.be.at.least(3 * lineOf(newest.querySelector('.bubble')!));
  expect(inside(log, call), `the log ${show(log)} in the call`).to.equal(true);
  const input = panel.shadowRoot!.querySelector('input[name=chat]')!;
  const inputBox = input.getBoundingClientRect();
  expect(inputBox.height, 'the message box drawn').to.be.greaterThan(20);
  expect(inside(inputBox, call) && inside(inputBox, viewport), `the message box ${show(inputBox)} on screen`).to.equal(true);
  expect(onTop(input), 'the message box not covered').to.equal(true);
  const tools = [
    deep(el, 'pal-conversation', '[part=mode-switch]')!,
    ...panel.shadowRoot!.querySelectorAll<HTMLElement>('.toolbar button'),
  ];
  expect(tools.length).to.equal(3);
  expect(new Set(tools.map((b) => Math.round(b.getBoundingClientRect().top))).size, 'voice/text switch and downloads on one row').to.equal(
    1,
  );
  for (const tool of tools) expect(tool.scrollWidth, `"${tool.textContent!.trim()}" not cut`).to.be.at.most(tool.clientWidth + 1);
}

for (const screen of SCREENS) {
  describe(`every screen fits at ${screen.width} × ${screen.height}`, () => {
    before(() => setViewport({ width: screen.width, height: screen.height }));
    after(() => setViewport({ width: 800, height: 600 }));

    for (const surface of ['pal-widget', 'pal-embed'] as const)
      for (const chat of [false, true])
        for (const card of [false, true])
          it(`${surface}, chat ${chat ? 'on' : 'off'}, ${card ? 'a card shown' : 'no card'}`, async () => {
            const state = { surface, chat, card };
            expectFits(await callIn(screen, state), state);
          });
  });
}

describe('a card beside the open chat on a short phone', () => {
  before(() => setViewport({ width: 320, height: 640 }));
  after(() => setViewport({ width: 800, height: 600 }));

  it('is a chip the visitor expands to the whole card in place of the chat, her stage kept, and minimises again', async () => {
    const state = { surface: 'pal-widget', chat: true, card: true } as const;
    const el = await callIn(SCREENS[0], state);
    const canvas = deep(el, 'pal-conversation', 'pal-canvas')!;
    const chip = canvas.shadowRoot!.querySelector<HTMLButtonElement>('.chip-open')!;
    expect(chip.textContent).to.contain('Which of these fits your riding best?');
    expect(chip.getAttribute('aria-expanded')).to.equal('false');
    chip.click();
    await waitFor(() => canvas.shadowRoot!.querySelector('[part=card] fieldset') !== null, { what: 'the card expanded' });
    await new Promise((r) => requestAnimationFrame(r));
    const call = deep(el, 'pal-conversation')!.getBoundingClientRect();
    const stage = deep(el, 'pal-conversation', 'pal-stage')!.getBoundingClientRect();
    const card = canvas.shadowRoot!.querySelector('[part=card]')!.getBoundingClientRect();
    expect(card.height, `the expanded card ${show(card)}`).to.be.at.least(150);
    expect(overlap(card, stage), `the card ${show(card)} clear of her stage ${show(stage)}`).to.equal(false);
    expect(stage.height).to.be.at.least(call.height / 3 - 1);
    expect(deep(el, 'pal-conversation', 'pal-transcript.panel')!.getBoundingClientRect().height, 'the chat stepped aside').to.equal(0);
    const minimise = canvas.shadowRoot!.querySelector<HTMLButtonElement>('[part=card] button[aria-expanded=true]')!;
    expect(canvas.shadowRoot!.activeElement, 'focus on the minimise button').to.equal(minimise);
    minimise.click();
    await waitFor(() => canvas.shadowRoot!.querySelector('.chip-open') !== null, { what: 'the chip again' });
    expect(canvas.shadowRoot!.activeElement, 'focus back on the chip').to.equal(canvas.shadowRoot!.querySelector('.chip-open'));
    await new Promise((r) => requestAnimationFrame(r));
    expectFits(el, state);
    // Expanded and answered, the card goes and the chat is back.
    canvas.shadowRoot!.querySelector<HTMLButtonElement>('.chip-open')!.click();
    await waitFor(() => canvas.shadowRoot!.querySelector('[part=card] fieldset input') !== null, { what: 'expanded again' });
    canvas.shadowRoot!.querySelector<HTMLInputElement>('[part=card] fieldset input')!.click();
    canvas.shadowRoot!.querySelector<HTMLButtonElement>('[part=card] button[type=submit]')!.click();
    await waitFor(() => !canvas.hasAttribute('has-card'), { what: 'the card answered and gone' });
    await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.panel')!.getBoundingClientRect().height > 100, {
      what: 'the chat back once the card has gone',
    });
  });
});
