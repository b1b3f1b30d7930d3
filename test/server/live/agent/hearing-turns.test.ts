// When the PAL takes the visitor's turn: real speech (espeak-ng) through the real voice activity detector,
// with a recogniser the test answers by hand, so that what the words say and when they come is chosen.
// The turn is transcribed at its pause while it goes on; a finished sentence is answered once its words
// are in, words that trail off are waited for, speech after a pause makes the early words a caption only,
// and a slow or failing recogniser never cuts the visitor off or loses the turn.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Participant } from '../../../../src/protocol/room.js';
import { PalHearing, type HearingPort } from '../../../../src/server/live/agent/hearing.js';
import { vadReady, VoiceActivityDetector } from '../../../../src/server/live/ears/vad.js';
import { MICROPHONE_RATE as RATE, speech } from '../../../helpers/voice.js';

const visitor: Participant = { participant_id: 'v1', user_name: 'Dana', role: 'visitor' };
const silence = (ms: number) => new Int16Array((RATE * ms) / 1000);

interface Request {
  seconds: number;
  onWords?: (soFar: string) => void;
  answer(text: string): void;
  fail(): void;
  signal: AbortSignal;
}

function world(language = 'en') {
  const requests: Request[] = [];
  const events: string[] = [];
  const port: HearingPort = {
    palSpeaking: false,
    started: () => events.push('started'),
    stopped: () => events.push('stopped'),
    partial: (_from, text) => events.push(`partial:${text}`),
    heard: (_from, text) => events.push(`heard:${text}`),
    failed: () => events.push('failed'),
    missed: () => events.push('missed'),
  };
  const hearing = new PalHearing(
    { log: { error() {}, info() {}, debug() {} } },
    {
      detector: (rate) => new VoiceActivityDetector(rate),
      transcribe: (samples, sampleRate, _language, signal, onWords) =>
        new Promise<string>((resolve, reject) => {
          requests.push({
            seconds: samples.length / sampleRate,
            ...(onWords ? { onWords } : {}),
            answer: resolve,
            fail: () => reject(new Error('recogniser down')),
            signal,
          });
        }),
    },
    port,
    () => language,
  );
  /** Feeds audio in 20 ms frames, as the room receives it. */
  const hear = (...parts: Int16Array[]) => {
    for (const part of parts) for (let i = 0; i < part.length; i += RATE / 50) hearing.hear(visitor, part.subarray(i, i + RATE / 50), RATE);
  };
  /** Lets the promise work a transcript's answer started finish (hearing has no timers: turns of the loop suffice). */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  };
  return { requests, events, hear, settle, hearing };
}

describe("taking the visitor's turn", () => {
  let question: Int16Array;
  let firstHalf: Int16Array;
  let secondHalf: Int16Array;
  before(async () => {
    await vadReady();
    // espeak-ng ends its speech with silence of its own: cut it, so the pauses below are the test's.
    const trim = (s: Int16Array) => {
      let last = s.length - 1;
      while (last > 0 && Math.abs(s[last]!) < 300) last--;
      return s.subarray(0, last + 1);
    };
    question = trim(speech('What time does the shop open on Sundays?'));
    firstHalf = trim(speech('I would like to book a table for'));
    secondHalf = trim(speech('four people tomorrow evening.'));
  });

  it('transcribes at the pause, and a finished sentence is the turn as soon as its words are in: one request', async () => {
    const { requests, events, hear, settle } = world();
    hear(silence(300), question, silence(400));
    assert.equal(requests.length, 1, 'the audio so far went to the recogniser at the pause');
    assert.deepEqual(events, ['started']);
    requests[0]!.onWords?.('What time ');
    requests[0]!.answer('What time does the shop open on Sundays?');
    await settle();
    assert.deepEqual(
      events,
      ['started', 'partial:What time ', 'stopped', 'heard:What time does the shop open on Sundays?'],
      'ended without waiting for more silence',
    );
    hear(silence(1000));
    assert.equal(requests.length, 1, 'no second request for the same words');
  });

  it('words that trail off are waited for: a 900 ms pause to think does not end the turn, and the whole is heard', async () => {
    const { requests, events, hear, settle } = world();
    hear(silence(300), firstHalf, silence(400));
    requests[0]!.answer('I would like to book a table for.');
    await settle();
    hear(silence(500));
    assert.deepEqual(events, ['started'], "still the visitor's turn after 900 ms");
    hear(secondHalf, silence(400));
    assert.equal(requests.length, 2, 'the longer audio went to the recogniser at the next pause');
    assert.ok(requests[1]!.seconds > requests[0]!.seconds + 1, 'with both halves');
    requests[1]!.answer('I would like to book a table for four people tomorrow evening.');
    await settle();
    assert.deepEqual(events, ['started', 'stopped', 'heard:I would like to book a table for four people tomorrow evening.']);
  });

  it("the conversation's language decides which words trail off: a French fragment is waited for, the same words in English are not", async () => {
    for (const [language, ended] of [
      ['fr', false],
      ['en', true],
    ] as const) {
      const { requests, events, hear, settle } = world(language);
      hear(silence(300), firstHalf, silence(400));
      requests[0]!.answer('Je voudrais une table pour.');
      await settle();
      hear(silence(300));
      assert.deepEqual(events, ended ? ['started', 'stopped', 'heard:Je voudrais une table pour.'] : ['started'], language);
    }
  });

  it('speech after a pause makes the early words a caption only; the turn is what the latest pause heard', async () => {
    const { requests, events, hear, settle } = world();
    hear(silence(300), firstHalf, silence(400));
    hear(secondHalf, silence(400));
    assert.equal(requests.length, 2);
    assert.equal(requests[0]!.signal.aborted, true, 'one early request per visitor at a time: the older one is dropped');
    requests[1]!.answer('I would like to book a table for four people tomorrow evening.');
    await settle();
    assert.deepEqual(events, ['started', 'stopped', 'heard:I would like to book a table for four people tomorrow evening.']);
  });

  it('a slow recogniser holds the turn open (no end on a guess at 600 ms); the words end it when they come', async () => {
    const { requests, events, hear, settle } = world();
    hear(silence(300), question, silence(1000));
    assert.deepEqual(events, ['started'], 'a second of silence, no words yet: the turn is not ended on a guess');
    requests[0]!.answer('What time does the shop open on Sundays?');
    await settle();
    assert.deepEqual(events, ['started', 'stopped', 'heard:What time does the shop open on Sundays?']);
  });

  it('an early request that fails falls back to the usual pause and transcribes the whole turn; a second failure is told', async () => {
    const { requests, events, hear, settle } = world();
    hear(silence(300), question, silence(400));
    requests[0]!.fail();
    await settle();
    hear(silence(500));
    await settle();
    assert.deepEqual(events, ['started', 'stopped']);
    assert.equal(requests.length, 2, 'the turn went to the recogniser again');
    requests[1]!.answer('What time does the shop open on Sundays?');
    await settle();
    assert.deepEqual(events, ['started', 'stopped', 'heard:What time does the shop open on Sundays?']);

    hear(silence(300), question, silence(400));
    requests[2]!.fail();
    await settle();
    hear(silence(500));
    await settle();
    requests[3]!.fail();
    await settle();
    assert.deepEqual(events.slice(3), ['started', 'stopped', 'failed']);
  });

  it('a turn with no words in it is told as missed; a visitor who leaves mid-request is dropped with it', async () => {
    const { requests, events, hear, settle, hearing } = world();
    hear(silence(300), question, silence(400));
    requests[0]!.answer('  ');
    await settle();
    hear(silence(700));
    assert.deepEqual(events, ['started', 'stopped', 'missed']);
    hear(silence(300), question, silence(400));
    hearing.forget(visitor.participant_id);
    assert.equal(requests[1]!.signal.aborted, true);
  });
});
