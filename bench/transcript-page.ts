// Browser side of the transcript benchmark: a pal-transcript panel fed by a stand-in link, with hooks
// the runner drives (fill, append one entry, scroll) and that return timings.
import { LinkMessageEvent, type CanvasInteractionBody, type ConversationLink } from '../src/palkit/client/link.js';
import { defineParts } from '../src/palkit/components/define-parts.js';
defineParts();
import type { PalTranscript } from '../src/palkit/components/transcript/transcript.js';

class BenchLink extends EventTarget implements ConversationLink {
  readonly conversationId = 'c_bench';
  send(): void {}
  async postCanvasInteraction(_body: CanvasInteractionBody): Promise<void> {}
}

const words = 'the PAL answers questions about opening hours pricing plans delivery returns and accounts with care'.split(' ');
let counter = 0;
function utterance() {
  const n = 4 + ((counter * 7919) % 40); // 4–43 words: one to four lines
  const speech = Array.from({ length: n }, (_, i) => words[(counter + i) % words.length]).join(' ');
  const role = counter++ % 2 ? 'user' : 'replica';
  return { message_type: 'conversation', event_type: 'conversation.utterance', properties: { role, speech } };
}

const link = new BenchLink();
const el = document.createElement('pal-transcript') as PalTranscript;
el.style.cssText = 'height: 600px; width: 420px; display: flex';
el.link = link;
document.body.append(el);

const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
async function settled() {
  while (!(await el.updateComplete));
}

Object.assign(window, {
  bench: {
    async fill(n: number) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) link.dispatchEvent(new LinkMessageEvent(utterance()));
      await settled();
      await frame();
      await frame();
      return { ms: performance.now() - t0, rows: el.shadowRoot!.querySelectorAll('li').length, entries: el.entries.length };
    },
    /** Time from the message to the element being updated, and to the next rendered frame. */
    async appendOne() {
      const t0 = performance.now();
      link.dispatchEvent(new LinkMessageEvent(utterance()));
      await settled();
      const updated = performance.now() - t0;
      await frame();
      return { updated, nextFrame: performance.now() - t0 };
    },
    /** Scroll through the list by `step` px per frame for `frames` frames; returns frame intervals. */
    async scroll(frames: number, step: number) {
      const scroller = el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;
      const intervals: number[] = [];
      const work: number[] = [];
      let last = await frame();
      for (let i = 0; i < frames; i++) {
        const w0 = performance.now();
        scroller.scrollTop -= step;
        scroller.dispatchEvent(new Event('scroll'));
        await el.updateComplete;
        void scroller.offsetHeight; // include layout in the measured work
        work.push(performance.now() - w0);
        const now = await frame();
        intervals.push(now - last);
        last = now;
      }
      return { intervals, work, rows: el.shadowRoot!.querySelectorAll('li').length, scrollTop: scroller.scrollTop };
    },
  },
});
