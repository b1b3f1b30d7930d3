// The local PAL's speaker: one utterance at a time, with a bounded queue behind it (an operator's
// echoes or a flood of turns cannot pile up without end), and room again once an interrupt clears it; an
// interrupt never drops the disclosure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SynthesisEvent, Synthesizer } from '../../../../src/server/providers/voice/synthesis.js';
import { MAX_QUEUED_UTTERANCES, Speaker, type SpeechSource } from '../../../../src/server/live/speech/utterances.js';
import { PalVoice } from '../../../../src/server/providers/voice/pal-voice.js';

const RATE = 16000;

/** Every sentence is 80 ms of tone with its one word at the start. */
const shortTone: Synthesizer = {
  name: 'short-tone',
  async synthesize(text) {
    async function* events(): AsyncGenerator<SynthesisEvent> {
      yield { type: 'word', atMs: 0, text };
      yield { type: 'audio', samples: new Int16Array((RATE * 80) / 1000).fill(4000) };
    }
    return { sampleRate: RATE, events: events() };
  },
};

function speaker() {
  const emitted: string[] = [];
  const voice = new PalVoice(shortTone, { sendAudio: () => undefined, flushAudio: () => undefined }, 50);
  const s = new Speaker(
    { emit: (type) => void emitted.push(type) },
    voice,
    () => ({ language: 'en' }),
    () => new Date(),
    async () => undefined,
    () => undefined,
  );
  return { speaker: s, emitted };
}

const line = (text: string): SpeechSource =>
  async function* () {
    yield text;
  };
const utterance = (n: number) => ({ inferenceId: `i${n}`, turnIdx: 0, interruptible: true });

describe('the speaker', () => {
  it('keeps at most MAX_QUEUED_UTTERANCES waiting and drops the newest past that at once', async () => {
    const { speaker: s } = speaker();
    const first = s.say(line('Line 0.'), utterance(0));
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(s.speaking, 'the first utterance has its turn; the next ones wait');
    const results = [
      first,
      ...Array.from({ length: MAX_QUEUED_UTTERANCES + 12 }, (_, n) => s.say(line(`Line ${n + 1}.`), utterance(n + 1))),
    ];
    // The ones past the bound are answered before the first utterance has even finished.
    const firstDone = results[0]!.then(() => 'first');
    const overflow = Promise.all(results.slice(MAX_QUEUED_UTTERANCES + 1)).then(() => 'overflow');
    assert.equal(await Promise.race([firstDone, overflow]), 'overflow');
    const said = await Promise.all(results);
    assert.equal(said.filter((r) => r !== null).length, MAX_QUEUED_UTTERANCES + 1, 'the one being said and the queued ones');
    assert.deepEqual(
      said.slice(0, MAX_QUEUED_UTTERANCES + 1).map((r) => r?.text),
      Array.from({ length: MAX_QUEUED_UTTERANCES + 1 }, (_, n) => `Line ${n}.`),
    );
    assert.ok(said.slice(MAX_QUEUED_UTTERANCES + 1).every((r) => r === null));
  });

  it('takes new utterances again once an interrupt has dropped the queue', async () => {
    const { speaker: s } = speaker();
    const queued = Array.from({ length: MAX_QUEUED_UTTERANCES }, (_, n) => s.say(line(`Line ${n}.`), utterance(n)));
    assert.equal(await s.say(line('Too many.'), utterance(99)), null);
    s.interrupt();
    const after = await s.say(line('Heard again.'), utterance(100));
    assert.equal(after?.text, 'Heard again.');
    assert.ok(
      (await Promise.all(queued)).every((r) => r === null),
      'the interrupt dropped what waited',
    );
    await s.close();
  });

  it('an interrupt while lines wait (held for the face) drops them, but never the disclosure', async () => {
    const { speaker: s } = speaker();
    let show!: () => void;
    s.holdUntil(new Promise<void>((resolve) => (show = resolve)));
    const disclosure = s.say(line('I am an AI.'), { ...utterance(0), interruptible: false });
    const greeting = s.say(line('Hello there.'), utterance(1));
    s.interrupt();
    show();
    assert.equal((await disclosure)?.text, 'I am an AI.', 'the disclosure is said whole');
    assert.equal(await greeting, null, 'the greeting was dropped');
    await s.close();
  });
});
