// The PAL's voice engines: eSpeak NG in WebAssembly on worker threads (the default) and through palkit's
// native bridge (opt-in), both with real word and phoneme timing from the synthesiser, and an OpenAI-compatible speech endpoint (a fake speaking its chunked PCM wire format),
// with the local voice taking over when the provider fails or hangs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../../src/server/platform/config.js';
import { createGuardedFetch } from '../../../../src/server/platform/net/guarded-fetch.js';
import { EspeakSynthesizer, type LocalVoiceEngine } from '../../../../src/server/providers/voice/espeak.js';
import { estimatedVisemes, leadInShape, leadsIn, visemeOfIpa } from '../../../../src/server/providers/voice/visemes-of.js';
import {
  createSynthesizer,
  SynthesisError,
  type SynthesisEvent,
  type SynthesisStream,
} from '../../../../src/server/providers/voice/synthesis.js';
import { startFakeSpeechServices, type FakeSpeechServices } from '../../../helpers/fake-speech.js';

const log = { info: () => undefined, error: () => undefined, debug: () => undefined } as never;

async function collect(stream: SynthesisStream) {
  const events: SynthesisEvent[] = [];
  for await (const event of stream.events) events.push(event);
  const samples = events.flatMap((e) => (e.type === 'audio' ? [...e.samples] : []));
  const durationMs = (samples.length / stream.sampleRate) * 1000;
  const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / Math.max(1, samples.length)) / 32768;
  return {
    durationMs,
    rms,
    words: events.flatMap((e) => (e.type === 'word' ? [e] : [])),
    visemes: events.flatMap((e) => (e.type === 'viseme' ? [e.viseme] : [])),
    leadIns: events.flatMap((e, i) => (e.type === 'viseme' && e.leadsIn ? [i] : [])),
    events,
  };
}

for (const engine of ['wasm', 'native'] as LocalVoiceEngine[])
  describe(`the local voice (eSpeak NG, ${engine})`, { timeout: 120_000 }, () => {
    const espeak = new EspeakSynthesizer(log, { engine });
    after(() => espeak.close());

    it('speaks audibly, with each word timed by the synthesiser, in order, within the audio', async () => {
      const stream = await espeak.synthesize(
        'Hello, my name is Mia and I can help you today.',
        { language: 'en' },
        new AbortController().signal,
      );
      assert.equal(stream.sampleRate, 22050);
      const spoken = await collect(stream);
      assert.ok(spoken.rms > 0.02, `audible (rms ${spoken.rms})`);
      assert.deepEqual(
        spoken.words.map((w) => w.text),
        ['Hello', 'my', 'name', 'is', 'Mia', 'and', 'I', 'can', 'help', 'you', 'today'],
      );
      const times = spoken.words.map((w) => w.atMs);
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
      );
      assert.ok(
        times.at(-1)! < spoken.durationMs && times.at(-1)! > spoken.durationMs / 2,
        `the last word starts at ${times.at(-1)} of ${spoken.durationMs} ms`,
      );
      assert.ok(
        spoken.visemes.includes('M') && spoken.visemes.includes('A') && spoken.visemes.includes('rest'),
        `open, closed and resting mouths: ${spoken.visemes.join(' ')}`,
      );
    });

    it('marks the h of "Hello" as leading into the vowel after it', async () => {
      const spoken = await collect(await espeak.synthesize('Hello there.', { language: 'en' }, new AbortController().signal));
      assert.equal(spoken.leadIns.length, 1, `one h: ${JSON.stringify(spoken.events.filter((e) => e.type === 'viseme'))}`);
      const next = spoken.events.slice(spoken.leadIns[0]! + 1).find((e) => e.type === 'viseme');
      assert.deepEqual(next && next.type === 'viseme' ? next.viseme : null, 'E', 'the e of "Hello" follows it');
    });

    it('speaks German with the German voice, and faster at a higher rate', async () => {
      const text = 'Guten Tag, wie kann ich Ihnen heute helfen?';
      const german = await collect(await espeak.synthesize(text, { language: 'de' }, new AbortController().signal));
      const english = await collect(await espeak.synthesize(text, { language: 'en' }, new AbortController().signal));
      assert.notEqual(Math.round(german.durationMs), Math.round(english.durationMs), 'another voice reads it differently');
      const fast = await collect(await espeak.synthesize(text, { language: 'de', rate: 350 }, new AbortController().signal));
      assert.ok(fast.durationMs < german.durationMs * 0.7, `${fast.durationMs} ms at 350 wpm against ${german.durationMs} ms`);
    });

    it('delivers the first samples of a sentence quickly', async () => {
      // The best of five: what the engine can do, not what a machine shared with other test runs let it do once.
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const stream = await espeak.synthesize(
          'Delivery within Germany usually takes three to five working days.',
          { language: 'en' },
          new AbortController().signal,
        );
        for await (const event of stream.events) if (event.type === 'audio') break;
        times.push(performance.now() - started);
      }
      console.log(`# ${engine}: first audio after ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
      assert.ok(Math.min(...times) < 300, `first audio after ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    });

    it('speaks a text that starts with NUL or holds other control characters', async () => {
      assert.ok(
        (await collect(await espeak.synthesize('\u0000Hello there.', { language: 'en' }, new AbortController().signal))).rms > 0.02,
      );
      assert.ok(
        (await collect(await espeak.synthesize('Line one\u0000\u0007\u2028line two.', { language: 'en' }, new AbortController().signal)))
          .words.length >= 4,
      );
    });

    it('refuses a language it has no voice for', async () => {
      await assert.rejects(
        collect(await espeak.synthesize('Hallo', { language: 'xx' }, new AbortController().signal)),
        (e) => e instanceof SynthesisError && e.code === 'unsupported_language',
      );
    });
  });

describe('mouth shapes from IPA phonemes (the WebAssembly voice)', () => {
  it('maps vowels, lips, diphthongs and pauses, ignoring stress and length marks', () => {
    const cases: Array<[string, string]> = [
      ['ˈaɪ', 'A'],
      ['ˈoʊ', 'O'],
      ['eɪ', 'E'],
      ['ə', 'E'],
      ['ᵻ', 'I'],
      ['iː', 'I'],
      ['ʊ', 'U'],
      ['m', 'M'],
      ['b', 'M'],
      ['f', 'F'],
      ['θ', 'L'],
      ['tʃ', 'S'],
      ['ɹ', 'S'],
      ['', 'rest'],
      ['_:', 'rest'],
    ];
    for (const [ipa, viseme] of cases) assert.equal(visemeOfIpa(ipa), viseme, ipa);
  });

  it("takes an h (eSpeak's h, IPA h and ɦ, stressed or not) as leading into the vowel after it, and nothing else", () => {
    for (const h of ['h', "'h", 'ɦ', 'ˈh']) assert.equal(leadsIn(h), true, h);
    for (const other of ['', 'hw', 's', 'x', 'ç', 'ə', '_:']) assert.equal(leadsIn(other), false, other);
    assert.equal(leadInShape('S', 'E'), 'E');
    assert.equal(leadInShape('S', 'O'), 'O');
    assert.equal(leadInShape('S', 'M'), 'S', 'before closed lips an h keeps its own shape');
    assert.equal(leadInShape('S', 'rest'), 'S');
  });
});

describe("mouth shapes from letters (a provider's audio without phonemes)", () => {
  it('gives an h said as one the vowel after it, and an h of th, sh or ch its own shape', () => {
    const shapes = (text: string) =>
      estimatedVisemes(text, 1000)
        .map((m) => m.viseme)
        .join(' ');
    assert.equal(shapes('Hello'), 'E E L L O');
    assert.equal(shapes('ahoy'), 'A O O I');
    assert.equal(shapes('the'), 'L S E');
    assert.equal(shapes('she'), 'S S E');
  });
});

describe('an OpenAI-compatible speech endpoint', () => {
  let fake: FakeSpeechServices;
  before(async () => {
    fake = await startFakeSpeechServices({ transcript: '' });
  });
  after(() => fake.close());

  const synthesizer = () => {
    const config = loadConfig({
      PALKIT_TTS_BASE_URL: `${fake.url}/v1`,
      PALKIT_TTS_API_KEY: 'sk-tts',
      PALKIT_TTS_MODEL: 'tts-test',
      PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8',
    });
    return createSynthesizer({ config, fetch: createGuardedFetch(config.outboundAllow), log });
  };

  it('asks for PCM with the model, voice and key, and reads the chunked 24 kHz samples with words spread over them', async () => {
    const spoken = await collect(
      await synthesizer().synthesize('One two three four five.', { language: 'en', voice: 'nova' }, new AbortController().signal),
    );
    assert.deepEqual(fake.speeches.at(-1), {
      authorization: 'Bearer sk-tts',
      body: { model: 'tts-test', input: 'One two three four five.', voice: 'nova', response_format: 'pcm' },
    });
    assert.equal(Math.round(spoken.durationMs), 600, 'every sample, across chunks that split samples');
    assert.ok(spoken.rms > 0.1);
    assert.deepEqual(
      spoken.words.map((w) => w.text),
      ['One', 'two', 'three', 'four', 'five.'],
    );
    assert.ok(spoken.words.at(-1)!.atMs > 350 && spoken.words.at(-1)!.atMs < 600);
  });

  it('falls back to the local voice when the provider fails', async () => {
    fake.failWith = 500;
    const stream = await synthesizer().synthesize('Still here.', { language: 'en' }, new AbortController().signal);
    assert.equal(stream.sampleRate, 22050, 'eSpeak spoke instead');
    assert.ok((await collect(stream)).rms > 0.02);
    fake.failWith = null;
  });
});
