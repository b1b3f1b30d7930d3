// The default local voice: eSpeak NG in WebAssembly on worker threads, supervised by the pool. A thread
// ended from outside (terminate()), one that hangs, throws out of eSpeak or exits in the middle of a
// sentence (faults planted by test/helpers/voice-fault-worker.ts) is replaced and the sentence finishes
// on the new one without a gap or a repeat; rooms share the threads in turn; an interrupt stops a
// sentence being said; bad messages to a thread are answered, not fatal.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EspeakSynthesizer } from '../../../../src/server/providers/voice/espeak.js';
import { WasmSpeaker } from '../../../../src/server/providers/voice/espeak/wasm-speaker.js';
import type { SynthesisStream } from '../../../../src/server/providers/voice/synthesizer.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { ManualClock } from '../../../helpers/clock.js';

const log = { info: () => undefined, error: () => undefined, debug: () => undefined } as never;
const LONG =
  'Delivery within Germany usually takes three to five working days, and a parcel to Austria or Switzerland one or two days more, depending on the carrier';
const FAULT_WORKER = fileURLToPath(new URL('../../../helpers/voice-fault-worker.ts', import.meta.url));
const never = () => new AbortController().signal;

async function samplesOf(stream: SynthesisStream): Promise<number> {
  let n = 0;
  for await (const event of stream.events) if (event.type === 'audio') n += event.samples.length;
  return n;
}

describe('the WebAssembly voice pool', { timeout: 300_000 }, () => {
  const STALL_MS = 3_000;
  const clock = new ManualClock();
  const faults = mkdtempSync(join(tmpdir(), 'palkit-voice-faults-'));
  let synthesizer: EspeakSynthesizer;
  let whole = 0;
  const text = LONG.repeat(4);
  before(async () => {
    process.env.PALKIT_TEST_VOICE_FAULTS = faults;
    // The stall timeout on a clock the test moves: a hang is noticed when the test says its time has passed.
    synthesizer = new EspeakSynthesizer(log, { speakers: 1, wasm: { entry: FAULT_WORKER, stallMs: STALL_MS, timers: clock } });
    whole = await samplesOf(await synthesizer.synthesize(text, { language: 'en' }, never()));
  });
  after(() => {
    synthesizer?.close();
    delete process.env.PALKIT_TEST_VOICE_FAULTS;
    rmSync(faults, { recursive: true, force: true });
  });

  it('runs eSpeak on a worker thread, not on the service thread', () => {
    assert.equal(synthesizer.engine, 'wasm');
    const [speaker] = synthesizer.liveSpeakers;
    assert.ok(speaker instanceof WasmSpeaker && speaker.thread.threadId > 0, 'a worker thread speaks');
    assert.ok(whole > 22050 * 10, `${whole} samples`);
  });

  it('a thread ended from outside in the middle of a sentence: a new one finishes it, without a gap or a repeat', async () => {
    const { sentences, deaths } = synthesizer.work;
    const stream = await synthesizer.synthesize(text, { language: 'en' }, never());
    let n = 0;
    let ended = false;
    for await (const event of stream.events) {
      if (event.type !== 'audio') continue;
      n += event.samples.length;
      if (!ended && n >= 10_000) {
        const [speaker] = synthesizer.liveSpeakers;
        void (speaker as WasmSpeaker).thread.terminate();
        ended = true;
      }
    }
    assert.ok(ended);
    assert.equal(synthesizer.work.deaths - deaths, 1, 'one thread died');
    assert.equal(synthesizer.work.sentences - sentences, 2, 'the sentence was said again by a new thread');
    // eSpeak says the same text the same way to within ~0.1%; a repeat or a gap would be the 10,000+ samples heard before.
    assert.ok(Math.abs(n - whole) < 4000, `${n} samples against ${whole}`);
  });

  for (const fault of ['hang', 'throw', 'exit'] as const) {
    it(`a thread that ${fault === 'hang' ? 'hangs' : fault === 'throw' ? 'throws out of eSpeak' : 'exits'} in the middle of a sentence is replaced, and the sentence finishes once`, async () => {
      const { sentences, deaths } = synthesizer.work;
      writeFileSync(join(faults, fault), '');
      const said = synthesizer.synthesize(text, { language: 'en' }, never()).then(samplesOf);
      if (fault === 'hang') {
        await waitFor(() => readdirSync(faults).some((f) => f.startsWith('hang.taken')), { what: 'a thread to take the hang' });
        await clock.advance(STALL_MS - 1);
        assert.equal(synthesizer.work.deaths - deaths, 0, 'a hang is not noticed before its stall');
        // The stall counts from the thread's last output (one still on its way may arm it again).
        await waitFor(
          async () => {
            await clock.advance(1);
            if (synthesizer.work.deaths - deaths > 0) return true;
            await clock.advance(STALL_MS);
            return synthesizer.work.deaths - deaths > 0;
          },
          { what: 'the hung thread to be noticed by its stall' },
        );
      }
      const n = await said;
      assert.ok(!existsSync(join(faults, fault)), 'the fault was taken');
      assert.ok(readdirSync(faults).some((f) => f.startsWith(`${fault}.taken`)));
      assert.equal(synthesizer.work.deaths - deaths, 1, 'one thread died');
      assert.equal(synthesizer.work.sentences - sentences, 2);
      assert.ok(Math.abs(n - whole) < 4000, `${n} samples against ${whole}`);
    });
  }

  it('serves rooms in turn: one room with many sentences waiting does not hold up another, and a lane is bounded', async () => {
    const order: string[] = [];
    const say = async (room: string, i: number) => {
      await samplesOf(await synthesizer.lane(room).synthesize(LONG, { language: 'en' }, never()));
      order.push(`${room}${i}`);
    };
    await Promise.all([...[0, 1, 2, 3, 4, 5].map((i) => say('flood', i)), say('quiet', 0)]);
    assert.ok(order.indexOf('quiet0') <= 2, `served: ${order.join(' ')}`);
    const flood = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => say('flood', i)));
    const refused = flood.filter((r) => r.status === 'rejected');
    assert.ok(refused.length >= 10 && refused.every((r) => /too many sentences/.test(String(r.reason))), `${refused.length} of 20 refused`);
  });

  it('a sentence cancelled while waiting never reaches a thread, and one being said stops there', async () => {
    const before = { ...synthesizer.work };
    const cut = Array.from({ length: 6 }, () => new AbortController());
    const streams = await Promise.all(cut.map((c) => synthesizer.lane('room').synthesize(text, { language: 'en' }, c.signal)));
    // The first is cut once its first samples are heard, so it is surely on the thread.
    const first = streams[0]!.events[Symbol.asyncIterator]();
    await first.next();
    for (const c of cut) c.abort();
    await first.return?.();
    for (const s of streams.slice(1)) await samplesOf(s);
    assert.ok((await samplesOf(await synthesizer.lane('room').synthesize('Next.', { language: 'en' }, never()))) > 0, 'the room speaks on');
    assert.equal(synthesizer.work.sentences - before.sentences, 2, 'only the first cut sentence and the next one reached the thread');
    const made = synthesizer.work.samples - before.samples;
    assert.ok(made < whole / 2, `the cut sentence and the next made ${made} samples; the whole sentence has ${whole}`);
  });

  it('speaks markup, entities and [[phoneme codes]] as text, with the words at their places', async () => {
    const stream = await synthesizer.synthesize('Tom <b>said</b> [[h@l]] & left.', { language: 'en' }, never());
    const words: string[] = [];
    let n = 0;
    for await (const e of stream.events) {
      if (e.type === 'word') words.push(e.text);
      if (e.type === 'audio') n += e.samples.length;
    }
    assert.ok(n > 10_000);
    // The tag's letters and the phoneme codes' characters are words read out, each at its own place in the text.
    assert.deepEqual(words, ['Tom', 'b', 'said', '/', 'b', 'h', '@', 'l', '&', 'left'], words.join(' | '));
  });
});

describe('a voice thread slow to start', { timeout: 120_000 }, () => {
  it('is given time for its first output while it warms up: the sentence is said once, by it', async () => {
    const faults = mkdtempSync(join(tmpdir(), 'palkit-voice-slow-'));
    process.env.PALKIT_TEST_VOICE_FAULTS = faults;
    writeFileSync(join(faults, 'slow-start'), '');
    // 3 s without output would end a warm thread; this cold one works 4.5 s before its first samples.
    const synthesizer = new EspeakSynthesizer(log, { speakers: 1, wasm: { entry: FAULT_WORKER, stallMs: 3_000 } });
    try {
      const n = await samplesOf(await synthesizer.synthesize('A sentence for a thread that starts slowly.', { language: 'en' }, never()));
      assert.ok(
        readdirSync(faults).some((f) => f.startsWith('slow-start.taken')),
        'the slow start was taken',
      );
      assert.equal(synthesizer.work.deaths, 0, 'the thread was not ended as stalled');
      assert.equal(synthesizer.work.sentences, 1);
      assert.ok(n > 10_000, `${n} samples`);
    } finally {
      synthesizer.close();
      delete process.env.PALKIT_TEST_VOICE_FAULTS;
      rmSync(faults, { recursive: true, force: true });
    }
  });
});

describe('a voice thread given bad messages', { timeout: 120_000 }, () => {
  it('answers each with an error and goes on speaking', async () => {
    const replies: unknown[] = [];
    const speaker = new WasmSpeaker({ onDeath: () => assert.fail('the thread died'), onIdle: () => undefined });
    try {
      speaker.thread.on('message', (m: { type: string }) => replies.push(m));
      // An idle speaker does not hold the event loop; this test waits on it directly.
      speaker.thread.ref();
      const bad: unknown[] = [
        null,
        1,
        'text',
        [],
        { id: 'x' },
        { id: 1, voice: '../../etc', rate: 175, text: 'Hi' },
        { id: 2, voice: 'en-us', rate: 'fast', text: 'Hi' },
        { id: 3, voice: 'en-us', rate: 175, text: 42 },
      ];
      await new Promise<void>((resolve) => speaker.thread.once('message', () => resolve()));
      for (const message of bad) speaker.thread.postMessage(message);
      const events: string[] = [];
      await new Promise<void>((resolve) =>
        speaker.run({
          id: 9,
          voice: 'en-us',
          rate: 175,
          text: 'Still here.',
          onEvent: (e) => (events.push(e.type), e.type === 'end' && resolve()),
        }),
      );
      assert.equal(replies.filter((r) => (r as { message?: string }).message === 'malformed request').length, bad.length);
      assert.ok(events.includes('audio') && events.includes('word') && events.includes('viseme'), events.join(' '));
    } finally {
      speaker.stop();
    }
  });
});

describe('an idle WebAssembly voice', { timeout: 120_000 }, () => {
  it('does not keep the process alive: a service that is done may exit without closing it', async () => {
    const { execFile } = await import('node:child_process');
    const espeak = new URL('../../../../src/server/providers/voice/espeak.ts', import.meta.url).href;
    const script = `const { EspeakSynthesizer } = await import(${JSON.stringify(espeak)});
      const log = { info() {}, error() {}, debug() {} };
      const s = new EspeakSynthesizer(log, { speakers: 1 });
      for await (const e of (await s.synthesize('Hi there.', { language: 'en' }, new AbortController().signal)).events) void e;
      new EspeakSynthesizer(log, { speakers: 1 });
      console.log('said');`;
    const started = performance.now();
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 90_000 }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    assert.match(out, /said/);
    console.log(`# exited ${(performance.now() - started).toFixed(0)} ms after start`);
  });
});

describe('a pool with a warm thread and a replacement still loading', { timeout: 120_000 }, () => {
  it('gives the next sentence to the warm thread', async () => {
    const synthesizer = new EspeakSynthesizer(log, { speakers: 2 });
    try {
      // Two rooms at once: two threads.
      await Promise.all(
        ['a', 'b'].map(async (room) => samplesOf(await synthesizer.lane(room).synthesize('Hello there.', { language: 'en' }, never()))),
      );
      const [kept, ended] = synthesizer.liveSpeakers as WasmSpeaker[];
      await waitFor(() => kept!.warm && ended!.warm, { timeout: 90_000, interval: 50 });
      assert.ok(kept!.warm && ended!.warm, 'both threads said they are warm');
      void ended!.thread.terminate();
      await waitFor(() => synthesizer.work.deaths > 0, { timeout: 90_000, interval: 20 });
      const fresh = synthesizer.liveSpeakers.find((s) => s !== kept) as WasmSpeaker;
      assert.ok(fresh && fresh !== ended && !fresh.warm, 'a replacement is loading');
      let keptSpoke = false;
      const listen = (m: { type: string }) => (keptSpoke ||= m.type === 'events');
      kept!.thread.on('message', listen);
      const started = performance.now();
      assert.ok((await samplesOf(await synthesizer.synthesize('Who says this?', { language: 'en' }, never()))) > 5000);
      kept!.thread.off('message', listen);
      assert.ok(keptSpoke, 'the warm thread said it');
      console.log(`# said by the warm thread in ${(performance.now() - started).toFixed(0)} ms while its replacement loads`);
    } finally {
      synthesizer.close();
    }
  });
});
