// The chat panel keeps its newest message in view when its height changes: a card arriving under the open
// chat takes rows from it (and gives them back when answered). Firefox and Chromium kept the scroll position,
// so the newest message sank under the message box.
import { expect, fixture, html } from '@open-wc/testing';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
defineParts();
import type { PalTranscript } from '../../../src/palkit/components/transcript/transcript.js';
import { FakeLink, nextFrame } from '../protocol/fake-link.js';
import { inside, show } from '../helpers/boxes.js';
import { waitFor } from '../helpers/wait-for.js';

describe('pal-transcript panel at a new height', () => {
  let link: FakeLink;
  let el: PalTranscript;
  const scroller = () => el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;
  const newestInView = () => {
    const newest = [...el.shadowRoot!.querySelectorAll('li')].at(-1);
    return (
      newest?.textContent?.includes('The newest message.') === true &&
      inside(newest.getBoundingClientRect(), scroller().getBoundingClientRect())
    );
  };
  const where = () => {
    const newest = [...el.shadowRoot!.querySelectorAll('li')].at(-1)!;
    return `the newest row ${show(newest.getBoundingClientRect())} in the log ${show(scroller().getBoundingClientRect())}`;
  };

  beforeEach(async () => {
    link = new FakeLink();
    el = await fixture<PalTranscript>(
      html`<pal-transcript pal-name="Nova" style="height: 400px; width: 320px" .link=${link}></pal-transcript>`,
    );
    for (let i = 0; i < 12; i++)
      link.event('conversation.utterance', { role: i % 2 ? 'user' : 'replica', speech: `Line ${i} ${'with more words '.repeat(i % 4)}` });
    link.event('conversation.utterance', { role: 'replica', speech: 'The newest message.' });
    await waitFor(newestInView, { what: 'the newest message in view' });
  });

  it('keeps following the newest message when it gets shorter, and taller again', async () => {
    el.style.height = '180px';
    await nextFrame();
    await nextFrame();
    expect(newestInView(), `shorter: ${where()}`).to.equal(true);
    el.style.height = '520px';
    await nextFrame();
    await nextFrame();
    expect(newestInView(), `taller: ${where()}`).to.equal(true);
    const rows = [...el.shadowRoot!.querySelectorAll('li')];
    const log = scroller().getBoundingClientRect();
    expect(rows[0]!.getBoundingClientRect().top, 'rows from the top of the taller log').to.be.at.most(log.top + 1);
  });

  it('stays where the reader scrolled back to', async () => {
    const s = scroller();
    s.scrollTop = 40;
    s.dispatchEvent(new Event('scroll'));
    await el.updateComplete;
    el.style.height = '200px';
    await nextFrame();
    await nextFrame();
    expect(s.scrollTop).to.equal(40);
    expect(el.autoScroll).to.equal(false);
  });
});
