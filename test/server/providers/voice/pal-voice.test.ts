// The PAL's voice pacer: audio leaves in real time in 40 ms slices with their mouth shapes, captions
// follow the words as they are heard, an interrupt flushes at once, a failing engine falls back to captions.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { Viseme } from '../../../../src/protocol/visemes.js';
import { LEAD_MS, PalVoice, type AudioOut, type VoiceHooks } from '../../../../src/server/providers/voice/pal-voice.js';
import { sentencesOf } from '../../../../src/server/providers/voice/speech-pieces.js';
import type { SynthesisEvent, Synthesizer, VoiceChoice } from '../../../../src/server/providers/voice/synthesis.js';

const RATE = 16000;

/** A synthesiser that says each word as 200 ms of tone, mouth open on the word and closed between words. */
function toneSynthesizer(options: { failOn?: string } = {}): Synthesizer {
  return {
    name: 'tone',
    async synthesize(text) {
      if (options.failOn && text.includes(options.failOn)) throw new Error('engine down');
      const words = text.split(/\s+/).filter(Boolean);
      async function* events(): AsyncGenerator<SynthesisEvent> {
        for (const [i, word] of words.entries()) {
          yield { type: 'word', atMs: i * 200, text: word };
          yield { type: 'viseme', atMs: i * 200, viseme: 'A' };
          yield { type: 'viseme', atMs: i * 200 + 150, viseme: 'M' };
          const samples = new Int16Array(RATE / 5);
          for (let s = 0; s < samples.length; s++) samples[s] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * s) / RATE));
          yield { type: 'audio', samples };
        }
      }
      return { sampleRate: RATE, events: events() };
    },
  };
}

function recorder(now: () => number = () => performance.now()) {
  const t0 = now();
  const slices: Array<{ at: number; samples: number; viseme: Viseme }> = [];
  const words: Array<{ at: number; text: string }> = [];
  let flushed = 0;
  let failed = 0;
  const out: AudioOut = {
    sendAudio: (samples, _rate, viseme) => slices.push({ at: now() - t0, samples: samples.length, viseme }),
    flushAudio: () => void flushed++,
  };
  const heard: string[] = [];
  const hooks: VoiceHooks = {
    onStart: () => undefined,
    onWord: (index, sentence, end) => {
      heard[index] = sentence.slice(0, end);
      words.push({ at: now() - t0, text: heard.join(' ') });
    },
    onVoiceFailed: () => void failed++,
  };
  return { out, hooks, slices, words, flushed: () => flushed, failed: () => failed };
}

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

/** The pacer's waits and clock on node:test's mock timers, moved 10 ms at a time (each step's work run). */
function mockTime(t: TestContext): { advance(ms: number): Promise<void> } {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  return {
    async advance(ms) {
      for (let passed = 0; passed < ms; passed += 10) {
        t.mock.timers.tick(10);
        for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

/** The mouth shapes of the slices the pacer sends for `text`, said by an engine whose events are `events`' (on mock time). */
async function sliceShapes(t: TestContext, text: string, events: () => Generator<SynthesisEvent>): Promise<Viseme[]> {
  const { advance } = mockTime(t);
  const r = recorder(() => Date.now());
  const engine: Synthesizer = {
    name: 'scripted events',
    async synthesize() {
      return {
        sampleRate: RATE,
        events: (async function* () {
          yield* events();
        })(),
      };
    },
  };
  const voice = new PalVoice(engine, r.out, 100, () => Date.now());
  let done = false;
  const spoken = voice
    .speak(sentencesOf(chunks(text)), { language: 'en' }, r.hooks, new AbortController().signal)
    .finally(() => (done = true));
  for (let waited = 0; !done && waited < 5000; waited += 10) await advance(10);
  await spoken;
  return r.slices.map((s) => s.viseme);
}

describe('the PAL voice pacer', () => {
  it("sends 40 ms slices in real time, ahead of playback by a bounded lead, with each slice's mouth shape", async (t) => {
    const { advance } = mockTime(t);
    const r = recorder(() => Date.now());
    const voice = new PalVoice(toneSynthesizer(), r.out, 100, () => Date.now());
    let elapsed: number | null = null;
    const spoken = voice
      .speak(sentencesOf(chunks('One two three. Four five.')), { language: 'en' }, r.hooks, new AbortController().signal)
      .then(() => (elapsed = Date.now()));
    for (let waited = 0; elapsed === null && waited < 5000; waited += 10) await advance(10);
    await spoken;
    // 5 words × 200 ms = 1 s of audio in 25 slices of 640 samples; it ends once the last words are captioned,
    // 60 ms after they are heard (the clock moves 10 ms a step).
    assert.equal(r.slices.length, 25);
    assert.ok(r.slices.every((s) => s.samples === 640));
    assert.ok(elapsed !== null && elapsed >= 1060 && elapsed <= 1070, `took ${elapsed} ms for 1 s of audio`);
    // Each slice leaves LEAD_MS before it is heard: not earlier, and within the clock's step of it.
    for (const [i, slice] of r.slices.entries()) {
      assert.ok(slice.at >= i * 40 - LEAD_MS, `slice ${i} sent at ${slice.at} ms, too early`);
      assert.ok(slice.at <= Math.max(0, i * 40 - LEAD_MS) + 10, `slice ${i} sent at ${slice.at} ms, late`);
    }
    // A slice shows the mouth at its middle: 120–160 ms is still open (closing at 150), 160–200 closed.
    assert.deepEqual(
      r.slices.slice(0, 6).map((s) => s.viseme),
      ['A', 'A', 'A', 'A', 'M', 'A'],
    );
    assert.deepEqual(
      r.words.map((w) => w.text),
      ['One', 'One two', 'One two three.', 'One two three. Four', 'One two three. Four five.'],
    );
    // Each word is captioned when it is heard, not when it was synthesised.
    for (const [i, word] of r.words.entries()) assert.ok(word.at >= i * 200 && word.at < i * 200 + 250, `word ${i} at ${word.at} ms`);
  });

  it('hands a later sentence over with slack only when the sentences before it play for seconds', async (t) => {
    const { advance } = mockTime(t);
    const r = recorder(() => Date.now());
    const asked: Array<{ text: string; continues: boolean }> = [];
    const tone = toneSynthesizer();
    const engine: Synthesizer = {
      name: 'noting',
      synthesize(text: string, voice: VoiceChoice, signal: AbortSignal) {
        asked.push({ text, continues: voice.continues === true });
        return tone.synthesize(text, voice, signal);
      },
    };
    const voice = new PalVoice(engine, r.out, 100, () => Date.now());
    let done = false;
    const text = 'Good question. Northwind Bikes delivers within Germany in 3 to 5 working days. Bikes can be returned within 30 days.';
    const spoken = voice
      .speak(sentencesOf(chunks(text)), { language: 'en' }, r.hooks, new AbortController().signal)
      .finally(() => (done = true));
    for (let waited = 0; !done && waited < 20_000; waited += 10) await advance(10);
    await spoken;
    // "Good question." plays under a second: the sentence after it is as urgent as a first one. Before the
    // third, two sentences play about five seconds.
    assert.deepEqual(
      asked.map((a) => a.continues),
      [false, false, true],
    );
  });

  it("gives each slice the mouth shape at its middle when the engine reports a buffer's shapes after its samples (as eSpeak does)", async (t) => {
    // 100 ms buffers, each followed by its shapes: open (A) on its first half, spread (E) on its second.
    const shapes = await sliceShapes(t, 'Four buffers.', function* () {
      for (let i = 0; i < 4; i++) {
        yield { type: 'audio', samples: new Int16Array(RATE / 10).fill(4000) };
        yield { type: 'viseme', atMs: i * 100, viseme: 'A' };
        yield { type: 'viseme', atMs: i * 100 + 50, viseme: 'E' };
      }
    });
    // 400 ms in 10 slices, their middles at 20, 60, 100 … 380 ms: A where the middle falls in a buffer's first half.
    const expected = Array.from({ length: 10 }, (_, i) => ((i * 40 + 20) % 100 < 50 ? 'A' : 'E'));
    assert.deepEqual(shapes, expected);
  });

  it('shows an h with the mouth of the vowel after it, and with its own before anything else', async (t) => {
    // "Ha" then "h" then "M": an h leading into an open vowel, and an h before closed lips (its buffer's shapes after its samples).
    const shapes = await sliceShapes(t, 'Ha hm.', function* () {
      yield { type: 'audio', samples: new Int16Array(RATE / 5).fill(4000) };
      yield { type: 'viseme', atMs: 0, viseme: 'S', leadsIn: true };
      yield { type: 'viseme', atMs: 80, viseme: 'A' };
      yield { type: 'viseme', atMs: 160, viseme: 'S', leadsIn: true };
      yield { type: 'audio', samples: new Int16Array(RATE / 5).fill(4000) };
      yield { type: 'viseme', atMs: 240, viseme: 'M' };
    });
    // Slices' middles at 20, 60, 100 … 380 ms: the first h (0-80 ms) shows the A it leads into; the second (160-240) its own S.
    assert.deepEqual(shapes, ['A', 'A', 'A', 'A', 'S', 'S', 'M', 'M', 'M', 'M']);
  });

  it('an interrupt stops the audio at once and flushes what the room still had queued', async (t) => {
    const { advance } = mockTime(t);
    const r = recorder();
    const voice = new PalVoice(toneSynthesizer(), r.out, 100, () => Date.now());
    const abort = new AbortController();
    const speaking = voice.speak(sentencesOf(chunks('One two three four five six.')), { language: 'en' }, r.hooks, abort.signal);
    const stopped = assert.rejects(speaking, /interrupted/);
    await advance(300);
    abort.abort(new Error('interrupted'));
    const sent = r.slices.length;
    // 300 ms played, and at most LEAD_MS more sent ahead of playback.
    assert.ok(sent >= 8 && sent <= Math.ceil((300 + LEAD_MS) / 40), `${sent} slices sent by 300 ms`);
    await advance(1000); // longer than the rest of the utterance
    await stopped;
    assert.equal(r.flushed(), 1);
    assert.equal(r.slices.length, sent, 'nothing is sent after the interrupt');
  });

  it('a failing engine is reported once and the utterance goes on as paced captions', async () => {
    const r = recorder();
    const voice = new PalVoice(toneSynthesizer({ failOn: 'Four' }), r.out, 50);
    await voice.speak(sentencesOf(chunks('One two. Four five. Six seven.')), { language: 'en' }, r.hooks, new AbortController().signal);
    assert.equal(r.failed(), 1);
    assert.equal(r.slices.length, 10, 'only the first sentence was voiced');
    assert.equal(r.words.at(-1)?.text, 'One two. Four five. Six seven.');
  });
});

describe('sentences for speech', () => {
  it('cuts streamed text at sentence ends, early at a clause for the first one, and keeps decimals whole', async () => {
    const pieces: string[] = [];
    for await (const p of sentencesOf(
      chunks('Sure, delivery within Germany usually takes', ' 3.5 days on average', '. Returns are free! Anything else?'),
    ))
      pieces.push(p);
    assert.deepEqual(pieces, ['Sure, delivery within Germany usually takes 3.5 days on average.', 'Returns are free!', 'Anything else?']);
    const long: string[] = [];
    for await (const p of sentencesOf(
      chunks('Well, I think the best option for a family of four with two small children, ', 'honestly, is the cargo bike.'),
    ))
      long.push(p);
    assert.equal(long[0], 'Well, I think the best option for a family of four with two small children,');
  });

  /** When each sentence leaves, relative to the chunks read: `in n` before chunk n is handed over. */
  async function timeline(...parts: string[]): Promise<string[]> {
    const log: string[] = [];
    async function* source(): AsyncGenerator<string> {
      for (const [i, part] of parts.entries()) {
        log.push(`in ${i}`);
        yield part;
      }
    }
    for await (const piece of sentencesOf(source())) log.push(piece);
    return log;
  }

  it('cuts Japanese and Chinese sentences, each as soon as its full stop arrives', async () => {
    assert.deepEqual(await timeline('こんにちは。', 'お元気', 'ですか？', '今日はいい天気ですね。明日', 'も晴れます。'), [
      'in 0',
      'こんにちは。',
      'in 1',
      'in 2',
      'お元気ですか？',
      'in 3',
      '今日はいい天気ですね。',
      'in 4',
      '明日も晴れます。',
    ]);
    assert.deepEqual(await timeline('我们明天见。', '谢谢！'), ['in 0', '我们明天见。', 'in 1', '谢谢！']);
  });

  it('lets an English sentence go once a space follows its stop, and keeps "e.g. the" and decimals whole', async () => {
    assert.deepEqual(await timeline('Hello there. ', 'How are', ' you?'), ['in 0', 'Hello there.', 'in 1', 'in 2', 'How are you?']);
    assert.deepEqual(await timeline('It costs 3.', '5 euros. Take e.g. the red one. ', 'Bye'), [
      'in 0',
      'in 1',
      'It costs 3.5 euros.',
      'Take e.g. the red one.',
      'in 2',
      'Bye',
    ]);
    assert.deepEqual(await timeline('Ask Dr. ', 'Weber. ', 'He knows.'), ['in 0', 'in 1', 'Ask Dr. Weber.', 'in 2', 'He knows.']);
  });
});
