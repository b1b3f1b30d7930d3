// Issue 54, item 6: a new PAL's call is marked as AI by default. Whatever the PAL's disclosure_type and the
// conversation's policy (no banner here: `auto` outside the `eu` policy delivers none), the PAL's video carries
// a small persistent "AI" mark, as generated videos do; only the deployment's own `customization.ai_mark:
// false` hides it, not a page's override-config.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import type { InitResponse } from '../../../src/protocol/public.js';
import { waitFor } from '../helpers/wait-for.js';
import { LinkMessageEvent } from '../../../src/palkit/client/link.js';
import { onTop, overlap, show } from '../helpers/boxes.js';
import { deep, useFakeService } from '../helpers/deployment.js';

const FACE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640"><rect width="480" height="640" fill="#345"/><circle cx="240" cy="260" r="150" fill="#e0b49a"/></svg>')}`;

async function call(customization: InitResponse['customization'], attributes = ''): Promise<PalWidget> {
  const service = useFakeService({ customization: { show_haircheck: false, ...customization } });
  const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
  if (attributes) el.setAttribute('override-config', attributes);
  await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
  service.transportFactoryHook = (t) => (t.palImageUrl = FACE);
  await el.startConversation();
  await waitFor(() => el.state === 'connected' && deep(el, 'pal-conversation', 'pal-stage', 'img.pal') !== null, {
    what: 'in the call, her face shown',
  });
  return el;
}

describe("the AI mark on the PAL's video", () => {
  it("shows in a new PAL's call, with no banner: small, legible, on her video, named for screen readers", async () => {
    const el = await call({});
    expect(deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]:not([hidden])'), 'no disclosure delivered').to.equal(null);
    const mark = deep(el, 'pal-conversation', 'pal-stage', '[part=ai-mark]')!;
    expect(mark, 'the mark').to.not.equal(null);
    expect(mark.textContent!.trim()).to.equal('AI');
    expect(mark.getAttribute('role')).to.equal('img');
    expect(mark.getAttribute('aria-label')).to.equal('AI-generated video');
    const box = mark.getBoundingClientRect();
    const video = deep(el, 'pal-conversation', 'pal-stage', '[part=pal]')!.getBoundingClientRect();
    expect(box.width, 'drawn').to.be.greaterThan(10);
    expect(box.height).to.be.within(12, 32);
    expect(
      box.left >= video.left && box.right <= video.right && box.top >= video.top && box.bottom <= video.bottom,
      'on her video',
    ).to.equal(true);
    expect(onTop(mark), 'nothing covers it').to.equal(true);
    // It labels her, not the visitor: away from the self view's column (under it, it read as the visitor's label).
    const self = deep(el, 'pal-conversation', 'pal-stage', '[part=self]')!.getBoundingClientRect();
    expect(
      box.right,
      `the mark ${Math.round(box.left)}-${Math.round(box.right)} left of the self view's column from ${Math.round(self.left)}`,
    ).to.be.below(self.left);
    expect(box.left - video.left, "on her picture's left side").to.be.below(video.width / 2);
    const style = getComputedStyle(mark);
    expect(style.color).to.equal('rgb(255, 255, 255)');
    await expect(deep(el, 'pal-conversation', 'pal-stage')).to.be.accessible();
  });

  it('stays while the disclosure banner shows and after it is dismissed', async () => {
    const el = await call({});
    const session = el.session!;
    session.dispatchEvent(
      new (await import('../../../src/palkit/client/link.js')).LinkMessageEvent({
        message_type: 'conversation',
        event_type: 'conversation.disclosure',
        conversation_id: 'c42',
        properties: { visual_disclosure: 'You are interacting with an AI system.', verbal_disclosure: '', state: 'delivered' },
      }),
    );
    await waitFor(() => deep(el, 'pal-conversation', 'pal-disclosure', '[part=dismiss]') !== null, { what: 'banner' });
    const mark = () => deep(el, 'pal-conversation', 'pal-stage', '[part=ai-mark]');
    expect(onTop(mark()!), 'beside the banner, not under it').to.equal(true);
    deep<HTMLButtonElement>(el, 'pal-conversation', 'pal-disclosure', '[part=dismiss]')!.click();
    await waitFor(() => deep(el, 'pal-conversation', 'pal-disclosure', '[part=banner]:not([hidden])') === null, { what: 'dismissed' });
    expect(onTop(mark()!), 'still there').to.equal(true);
  });

  it("is hidden only by the deployment's own ai_mark: false, not by a page's override-config", async () => {
    const hidden = await call({ ai_mark: false });
    expect(deep(hidden, 'pal-conversation', 'pal-stage', '[part=ai-mark]')).to.equal(null);
    const overridden = await call({}, JSON.stringify({ ai_mark: false }));
    expect(deep(overridden, 'pal-conversation', 'pal-stage', '[part=ai-mark]')).to.not.equal(null);
  });

  // Captions sit over the bottom of her stage, where the mark is; a long reply's caption (pointer-events: none,
  // so hit-testing missed it) covered the mark in every engine at 320 and 390 px.
  for (const [width, height] of [
    [320, 640],
    [390, 844],
  ] as const)
    it(`stays uncovered by a long caption at ${width} px`, async () => {
      await setViewport({ width, height });
      try {
        const el = await call({});
        el.session!.dispatchEvent(
          new LinkMessageEvent({
            message_type: 'conversation',
            event_type: 'conversation.utterance.streaming',
            conversation_id: 'c42',
            properties: {
              role: 'replica',
              speech: 'Before we start: I am an AI system, not a human, and I can make mistakes.',
              final: false,
            },
          } as never),
        );
        const caption = () => deep(el, 'pal-conversation', 'pal-transcript.captions', '[part=captions]:not([hidden])');
        await waitFor(() => (caption()?.getBoundingClientRect().width ?? 0) > 100, { what: 'the caption shown' });
        const box = caption()!.getBoundingClientRect();
        const mark = deep(el, 'pal-conversation', 'pal-stage', '[part=ai-mark]')!.getBoundingClientRect();
        expect(overlap(box, mark), `the caption ${show(box)} clear of the AI mark ${show(mark)}`).to.equal(false);
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });
});
