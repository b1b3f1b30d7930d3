import { expect, fixture, html } from '@open-wc/testing';
import { waitFor } from '../helpers/wait-for.js';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
defineParts();
import type { PalTranscript } from '../../../src/palkit/components/transcript/transcript.js';
import { protocolStats } from '../../../src/protocol/interactions.js';
import { FakeLink, nextFrame } from '../protocol/fake-link.js';

const settle = async (el: PalTranscript) => {
  for (let i = 0; i < 4; i++) {
    await el.updateComplete;
    await nextFrame();
  }
};

describe('pal-transcript captions', () => {
  let link: FakeLink;
  let el: PalTranscript;
  const captions = () => el.shadowRoot!.querySelector<HTMLElement>('[part="captions"]')!;

  beforeEach(async () => {
    link = new FakeLink();
    el = await fixture<PalTranscript>(html`<pal-transcript mode="captions" .link=${link}></pal-transcript>`);
  });

  it('grows with streaming text and is replaced by the final utterance', async () => {
    expect(captions().hidden).to.be.true;
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Hello', final: false, content_index: 0 },
      { inference_id: 'i1' },
    );
    await el.updateComplete;
    expect(captions().hidden).to.be.false;
    expect(captions().textContent!.trim()).to.equal('Hello');
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Hello there, how', final: false, content_index: 1 },
      { inference_id: 'i1' },
    );
    await el.updateComplete;
    expect(captions().textContent!.trim()).to.equal('Hello there, how');
    link.event('conversation.utterance', { role: 'replica', speech: 'Hello there, how can I help?' }, { inference_id: 'i1' });
    await el.updateComplete;
    expect(captions().textContent!.trim()).to.equal('Hello there, how can I help?');
    // A late partial of the same turn does not shrink the final caption.
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Hello there', final: false, content_index: 2 },
      { inference_id: 'i1' },
    );
    await el.updateComplete;
    expect(captions().textContent!.trim()).to.equal('Hello there, how can I help?');
    await expect(el).to.be.accessible();
  });

  it("shows the visitor's words as they are heard, completed by their turn, then the PAL's reply; the panel lists only the complete turn", async () => {
    const panel = await fixture<PalTranscript>(html`<pal-transcript .link=${link}></pal-transcript>`);
    const text = () => el.shadowRoot!.querySelector<HTMLElement>('.caption-text')!;
    link.event('conversation.utterance.streaming', { role: 'user', speech: 'I would like', final: false });
    await el.updateComplete;
    expect(captions().hidden).to.be.false;
    expect(text().textContent!.trim()).to.equal('I would like');
    expect(text().dataset.role).to.equal('user');
    link.event('conversation.utterance.streaming', { role: 'user', speech: 'I would like to book a table for', final: false });
    await el.updateComplete;
    expect(text().textContent!.trim()).to.equal('I would like to book a table for');
    link.event('conversation.utterance', { role: 'user', speech: 'I would like to book a table for four.' }, { inference_id: 'u1' });
    await el.updateComplete;
    expect(text().textContent!.trim()).to.equal('I would like to book a table for four.');
    await panel.updateComplete;
    const rows = () => [...panel.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent!);
    expect(rows().length).to.equal(1);
    expect(rows()[0]).to.contain('I would like to book a table for four.');
    link.event('conversation.utterance.streaming', { role: 'replica', speech: 'A table for four', final: false }, { inference_id: 'r1' });
    await el.updateComplete;
    expect(text().textContent!.trim()).to.equal('A table for four');
    expect(text().dataset.role).to.equal('pal');
    await expect(el).to.be.accessible();
  });

  it('marks an interrupted turn and hides the caption after the hold time', async () => {
    el.captionHold = 50;
    link.event('conversation.utterance.streaming', { role: 'replica', speech: 'Let me explain', final: false }, { inference_id: 'i2' });
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Let me explain the', final: true, is_interrupted: true },
      { inference_id: 'i2' },
    );
    await el.updateComplete;
    expect(captions().querySelector('.interrupted')).to.exist;
    // It trails off as speech does; "interrupted" is for screen readers, not a label after the words.
    expect(captions().querySelector('.caption-text')!.textContent).to.contain('Let me explain the… (interrupted)');
    expect(getComputedStyle(captions().querySelector('.sr-only')!).position).to.equal('absolute');
    // The caption hold (50 ms) passes and the caption hides: wait for that state.
    await waitFor(
      async () => {
        await el.updateComplete;
        return captions().hidden;
      },
      { what: 'the caption to hide' },
    );
    expect(captions().hidden).to.be.true;
  });

  it('announces complete PAL utterances once, not partials, and only from one element per link', async () => {
    const panel = await fixture<PalTranscript>(html`<pal-transcript .link=${link}></pal-transcript>`);
    const status = (t: PalTranscript) => t.shadowRoot!.querySelector('[role="status"]')!.textContent!.trim();
    link.event('conversation.utterance.streaming', { role: 'replica', speech: 'Part', final: false });
    await el.updateComplete;
    expect(status(el)).to.equal('');
    link.event('conversation.utterance', { role: 'replica', speech: 'Partly cloudy today.' });
    link.event('conversation.utterance', { role: 'user', speech: 'Thanks' });
    await el.updateComplete;
    await panel.updateComplete;
    expect(status(el)).to.equal('Partly cloudy today.');
    expect(status(panel)).to.equal('');
  });
});

describe('pal-transcript panel', () => {
  let link: FakeLink;
  let el: PalTranscript;
  const rows = () => [...el.shadowRoot!.querySelectorAll('li')];
  const scroller = () => el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;

  beforeEach(async () => {
    link = new FakeLink();
    el = await fixture<PalTranscript>(
      html`<pal-transcript pal-name="Ava" style="height: 300px; width: 360px" .link=${link}></pal-transcript>`,
    );
  });

  it('lists both roles with timestamps, a streamed reply as one row', async () => {
    link.event('conversation.utterance.streaming', { role: 'replica', speech: 'Hi', final: false });
    link.event('conversation.utterance', { role: 'replica', speech: 'Hi, I am Ava.' });
    link.event('conversation.utterance', { role: 'user', speech: 'Hello Ava' });
    await settle(el);
    expect(rows()).to.have.length(2);
    expect(rows()[0]!.textContent).to.contain('Ava').and.contain('Hi, I am Ava.');
    expect(rows()[1]!.className).to.contain('user');
    expect(rows()[1]!.textContent).to.contain('You');
    expect(rows()[0]!.querySelector('time')!.getAttribute('datetime')).to.match(/^\d{4}-\d{2}-\d{2}T/);
    await expect(el).to.be.accessible();
  });

  it('renders nothing while hidden and everything said meanwhile once shown', async () => {
    el.hidden = true;
    await settle(el);
    let renders = 0;
    const counting = new MutationObserver(() => renders++);
    counting.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true, attributes: true });
    link.event('conversation.utterance', { role: 'replica', speech: 'Hi, I am Ava.' });
    link.event('conversation.utterance.streaming', { role: 'replica', speech: 'Shall we', final: false }, { inference_id: 'i2' });
    await settle(el);
    expect(renders, 'no change to the hidden panel').to.equal(0);
    expect(el.entries).to.have.length(2);
    el.hidden = false;
    await settle(el);
    counting.disconnect();
    expect(rows().map((r) => r.querySelector('.bubble')!.textContent)).to.deep.equal(['Hi, I am Ava.', 'Shall we']);
    expect(rows()[0]!.offsetHeight, 'rows measured while shown').to.be.greaterThan(0);
  });

  it('lists the tools the PAL used (not canvas cards), between the turns, and keeps them out of the exports', async () => {
    link.event('conversation.utterance', { role: 'user', speech: 'Weather in Lisbon?' }, { inference_id: 't1' });
    link.event(
      'conversation.tool_call',
      { name: 'get_weather', arguments: '{"city":"Lisbon"}', tool_call_id: 'call_1' },
      { inference_id: 't1' },
    );
    link.event('conversation.tool_call', { name: 'canvas_show_question', arguments: '{}', tool_call_id: 'call_2' }, { inference_id: 't1' });
    link.event('conversation.utterance', { role: 'replica', speech: 'Sunny in Lisbon.' }, { inference_id: 't2' });
    await settle(el);
    expect(rows()).to.have.length(3);
    expect(rows()[1]!.className).to.equal('tool');
    expect(rows()[1]!.textContent).to.contain('Used a tool:').and.contain('get_weather');
    expect(rows()[1]!.textContent).not.to.contain('Lisbon"');
    expect(el.exportTranscript('txt').size).to.be.greaterThan(0);
    const json = JSON.parse(await el.exportTranscript('json').text());
    expect(json.transcript.map((e: { content: string }) => e.content)).to.deep.equal(['Weather in Lisbon?', 'Sunny in Lisbon.']);
    await expect(el).to.be.accessible();
  });

  it('marks the interrupted turn in the panel', async () => {
    link.event('conversation.utterance', { role: 'replica', speech: 'A long answer that goes on' }, { inference_id: 'i9' });
    link.event('conversation.replica_interrupted', {}, { inference_id: 'i9' });
    await settle(el);
    expect(el.entries[0]!.interrupted).to.be.true;
    expect(rows()[0]!.querySelector('.interrupted')).to.exist;
  });

  it('sends chat as conversation.respond and shows it once, confirmed by the room echo', async () => {
    const input = el.shadowRoot!.querySelector('input')!;
    input.value = '  What are your hours?  ';
    el.shadowRoot!.querySelector('form')!.requestSubmit();
    await settle(el);
    expect(link.sent).to.deep.equal([
      {
        message_type: 'conversation',
        event_type: 'conversation.respond',
        conversation_id: 'c_test',
        properties: { text: 'What are your hours?' },
      },
    ]);
    expect(input.value).to.equal('');
    expect(rows()).to.have.length(1);
    expect(rows()[0]!.className).to.contain('pending');
    link.event('conversation.utterance', { role: 'user', speech: 'What are your hours?' });
    await settle(el);
    expect(rows()).to.have.length(1);
    expect(rows()[0]!.className).not.to.contain('pending');
    expect(el.sendChat('   ')).to.be.false;
    el.link = null;
    expect(el.sendChat('hello')).to.be.false;
  });

  it('follows new entries until the reader scrolls up, then offers a jump to the latest', async () => {
    for (let i = 0; i < 40; i++) link.event('conversation.utterance', { role: i % 2 ? 'user' : 'replica', speech: `Line ${i}` });
    await settle(el);
    const s = scroller();
    expect(s.scrollHeight).to.be.greaterThan(s.clientHeight);
    expect(s.scrollHeight - s.scrollTop - s.clientHeight).to.be.lessThan(2);
    expect(rows().at(-1)!.textContent).to.contain('Line 39');

    s.scrollTop = 100;
    s.dispatchEvent(new Event('scroll'));
    await settle(el);
    expect(el.autoScroll).to.be.false;
    const before = s.scrollTop;
    link.event('conversation.utterance', { role: 'replica', speech: 'Line 40' });
    await settle(el);
    expect(s.scrollTop).to.equal(before);
    const jump = el.shadowRoot!.querySelector<HTMLButtonElement>('.jump')!;
    expect(jump.textContent).to.contain('(1)');
    await expect(el).to.be.accessible();
    jump.click();
    await settle(el);
    expect(el.autoScroll).to.be.true;
    expect(s.scrollHeight - s.scrollTop - s.clientHeight).to.be.lessThan(2);
    expect(rows().at(-1)!.textContent).to.contain('Line 40');
  });

  it('keeps only the visible window of a long transcript in the DOM', async () => {
    for (let i = 0; i < 3000; i++) link.event('conversation.utterance', { role: i % 2 ? 'user' : 'replica', speech: `Entry number ${i}` });
    await settle(el);
    expect(el.entries).to.have.length(3000);
    expect(rows().length).to.be.within(3, 60);
    expect(rows().at(-1)!.getAttribute('aria-posinset')).to.equal('3000');
    const s = scroller();
    s.scrollTop = s.scrollHeight / 2;
    s.dispatchEvent(new Event('scroll'));
    await settle(el);
    const shown = rows().map((r) => Number(r.dataset.index));
    expect(Math.min(...shown)).to.be.within(1000, 2000);
    // The row under the middle of the viewport is really there.
    const box = s.getBoundingClientRect();
    const hit = el.shadowRoot!.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    expect(hit?.closest('li')).to.exist;
  });

  it('exports the whole transcript as text and JSON and downloads through a Blob URL', async () => {
    link.event('conversation.utterance', { role: 'replica', speech: 'Welcome!' }, { inference_id: 'i1' });
    link.event('conversation.utterance', { role: 'user', speech: 'Thanks' });
    await settle(el);
    const text = await el.exportTranscript('txt').text();
    expect(text).to.match(/^\[\d\d:\d\d:\d\d\] Ava: Welcome!\n\[\d\d:\d\d:\d\d\] You: Thanks\n$/);
    const json = JSON.parse(await el.exportTranscript('json').text());
    expect(json.conversation_id).to.equal('c_test');
    expect(json.transcript.map((e: { role: string; content: string }) => [e.role, e.content])).to.deep.equal([
      ['assistant', 'Welcome!'],
      ['user', 'Thanks'],
    ]);
    expect(json.transcript[0].inference_id).to.equal('i1');
    expect(json.transcript[1].seconds_from_start).to.be.a('number');

    const created: Blob[] = [];
    const original = URL.createObjectURL;
    URL.createObjectURL = (b: Blob | MediaSource) => (created.push(b as Blob), 'blob:fake');
    const clicks: string[] = [];
    const onClick = (e: Event) => {
      if (!(e.target instanceof HTMLAnchorElement)) return;
      clicks.push(e.target.download);
      e.preventDefault();
    };
    document.addEventListener('click', onClick, true);
    try {
      el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.toolbar button')[1]!.click();
    } finally {
      URL.createObjectURL = original;
      document.removeEventListener('click', onClick, true);
    }
    expect(created).to.have.length(1);
    expect(created[0]!.type).to.equal('application/json');
    expect(clicks).to.deep.equal(['transcript-c_test.json']);
  });

  it('shows the reply being spoken as a row from its first words, growing, completed by the utterance', async () => {
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Our opening', final: false, content_index: 0 },
      { inference_id: 'r1' },
    );
    await settle(el);
    expect(rows(), 'a row as the reply starts').to.have.length(1);
    expect(rows()[0]!.className).to.contain('streaming');
    expect(rows()[0]!.querySelector('.bubble')!.textContent!.trim()).to.equal('Our opening');
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Our opening hours are nine', final: false, content_index: 1 },
      { inference_id: 'r1' },
    );
    await settle(el);
    expect(rows()[0]!.querySelector('.bubble')!.textContent!.trim()).to.equal('Our opening hours are nine');
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Our opening hours are nine to five.', final: true, content_index: 2 },
      { inference_id: 'r1' },
    );
    link.event('conversation.utterance', { role: 'replica', speech: 'Our opening hours are nine to five.' }, { inference_id: 'r1' });
    await settle(el);
    expect(rows()).to.have.length(1);
    expect(rows()[0]!.className).not.to.contain('streaming');
    expect(rows()[0]!.querySelector('.bubble')!.textContent!.trim()).to.equal('Our opening hours are nine to five.');
    await expect(el).to.be.accessible();
  });

  it('keeps an interrupted reply with what was said, marked interrupted (the room sends no utterance for it)', async () => {
    link.event('conversation.utterance.streaming', { role: 'replica', speech: 'Let me explain', final: false }, { inference_id: 'r2' });
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Let me explain the', final: true, is_interrupted: true },
      { inference_id: 'r2' },
    );
    link.event('conversation.replica_interrupted', {}, { inference_id: 'r2' });
    link.event('conversation.replica.stopped_speaking', { interrupted: true, duration: 1 }, { inference_id: 'r2' });
    link.event('conversation.utterance', { role: 'user', speech: 'Wait' });
    await settle(el);
    expect(rows()).to.have.length(2);
    const bubble = rows()[0]!.querySelector('.bubble')!;
    expect(bubble.textContent!.trim()).to.equal('Let me explain the… (interrupted)');
    const seen = [...bubble.childNodes].filter(
      (n) => n.nodeType !== Node.COMMENT_NODE && !(n instanceof Element && n.classList.contains('sr-only')),
    );
    expect(
      seen
        .map((n) => n.textContent)
        .join('')
        .trim(),
      'what a visitor sees',
    ).to.equal('Let me explain the…');
    expect(await el.exportTranscript('txt').text()).to.match(/Ava: Let me explain the \(interrupted\)\n.*You: Wait\n$/s);
    // Only the final streaming event of a cut reply arrives (its partials were missed): still kept.
    link.event(
      'conversation.utterance.streaming',
      { role: 'replica', speech: 'Sure, the', final: true, is_interrupted: true },
      { inference_id: 'r3' },
    );
    await settle(el);
    expect(el.entries.at(-1)).to.include({ role: 'replica', speech: 'Sure, the', interrupted: true });
  });

  it('downloads what is on screen even before the first reply is complete; nothing to download while empty', async () => {
    const buttons = () => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.toolbar button')];
    expect(buttons().map((b) => b.disabled)).to.deep.equal([true, true]);
    link.event('conversation.utterance.streaming', { role: 'replica', speech: 'Welcome to', final: false }, { inference_id: 'g1' });
    await settle(el);
    expect(buttons().map((b) => b.disabled)).to.deep.equal([false, false]);
    const text = await el.exportTranscript('txt').text();
    expect(text).to.match(/^\[\d\d:\d\d:\d\d\] Ava: Welcome to\n$/);
  });

  it('takes the conversation so far from the link when it has nothing yet', async () => {
    const { LinkHistoryEvent } = await import('../../../src/palkit/client/link.js');
    link.dispatchEvent(
      new LinkHistoryEvent([
        { role: 'assistant', content: 'Hello!', timestamp: 1_700_000_000, inference_id: 'g1' },
        { role: 'user', content: 'Hi', timestamp: 1_700_000_002 },
      ]),
    );
    await settle(el);
    expect(el.entries.map((e) => [e.role, e.speech, e.timestamp])).to.deep.equal([
      ['replica', 'Hello!', 1_700_000_000_000],
      ['user', 'Hi', 1_700_000_002_000],
    ]);
    // A second delivery (another join) does not duplicate what is shown.
    link.dispatchEvent(new LinkHistoryEvent([{ role: 'assistant', content: 'Hello!', timestamp: 1_700_000_000 }]));
    await settle(el);
    expect(el.entries).to.have.length(2);
  });

  it('ignores and counts malformed messages', async () => {
    const before = protocolStats.ignored;
    link.deliver({ event_type: 'conversation.utterance', properties: { role: 'robot', speech: 1 } });
    link.deliver('garbage');
    link.deliver({ event_type: 'conversation.unheard_of', properties: {} });
    await settle(el);
    expect(protocolStats.ignored - before).to.equal(3);
    expect(el.entries).to.have.length(0);
  });
});
