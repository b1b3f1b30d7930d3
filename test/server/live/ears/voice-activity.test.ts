// Voice activity of a visitor's microphone, on real speech (espeak-ng, resampled to 16 kHz by the bundled ffmpeg):
// one turn with its start and end on time, nothing on silence or noise, and a stricter rule while the
// PAL talks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { bundledFfmpeg } from '../../../helpers/ffmpeg.js';
import { before, describe, it } from 'node:test';
import { joinSamples, resample } from '../../../../src/server/platform/audio/pcm.js';
import { PAUSE_MS, vadReady, VoiceActivityDetector, type VoiceChange } from '../../../../src/server/live/ears/vad.js';

const RATE = 16000;

function speech(text: string): Int16Array {
  const wav = execFileSync('espeak-ng', ['--stdout', '-s', '160', text]);
  const raw = execFileSync(
    bundledFfmpeg(),
    ['-loglevel', 'error', '-i', 'pipe:0', '-ar', String(RATE), '-ac', '1', '-f', 's16le', 'pipe:1'],
    { input: wav },
  );
  return new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
}

const silence = (ms: number) => new Int16Array((RATE * ms) / 1000);
function noise(ms: number, level: number): Int16Array {
  const out = silence(ms);
  for (let i = 0; i < out.length; i++) out[i] = Math.round((Math.random() * 2 - 1) * level * 32767);
  return out;
}
const scaled = (samples: Int16Array, gain: number) => samples.map((s) => Math.round(s * gain));
/** Where the last audible sample is (ms): espeak-ng ends its speech with a few hundred ms of silence. */
function lastSoundMs(samples: Int16Array): number {
  let last = 0;
  for (let i = 0; i < samples.length; i++) if (Math.abs(samples[i]!) > 500) last = i;
  return (last / RATE) * 1000;
}

/** Feeds the audio in 20 ms slices, as the room receives it; returns each change with the time (ms) it came. */
function feed(detector: VoiceActivityDetector, ...parts: Int16Array[]): Array<VoiceChange & { atMs: number }> {
  const audio = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    audio.set(part, at);
    at += part.length;
  }
  const changes: Array<VoiceChange & { atMs: number }> = [];
  for (let i = 0; i < audio.length; i += 320)
    for (const change of detector.push(audio.subarray(i, i + 320))) changes.push({ ...change, atMs: ((i + 320) / RATE) * 1000 });
  return changes;
}

describe('voice activity detection (WebRTC VAD)', () => {
  let words: Int16Array;
  before(async () => {
    await vadReady();
    words = speech('Hello there, could you tell me when the shop opens tomorrow?');
  });

  it('finds one turn in speech between silences: starts within 300 ms, ends about 600 ms after the last word', () => {
    const spokenMs = (words.length / RATE) * 1000;
    const changes = feed(new VoiceActivityDetector(RATE), silence(1000), words, silence(1500));
    assert.deepEqual(
      changes.map((c) => c.type),
      ['speech-start', 'pause', 'speech-end'],
    );
    assert.ok(changes[0]!.atMs > 1000 && changes[0]!.atMs < 1300, `started at ${changes[0]!.atMs} ms`);
    const endedAfterWords = changes[2]!.atMs - (1000 + spokenMs);
    assert.ok(endedAfterWords > 300 && endedAfterWords < 900, `ended ${endedAfterWords} ms after the words`);
    const end = changes[2]!;
    assert.ok(end.type === 'speech-end');
    const turnMs = (end.samples.length / RATE) * 1000;
    assert.ok(turnMs > spokenMs * 0.8 && turnMs < spokenMs + 600, `the turn holds ${turnMs} ms of ${spokenMs} ms spoken`);
  });

  it('ignores silence, low noise and a short click', () => {
    const click = silence(40).map((_, i) => (i < 200 ? 20000 : 0));
    assert.deepEqual(feed(new VoiceActivityDetector(RATE), silence(1000), noise(2000, 0.003), click, silence(1000)), []);
  });

  it('while the PAL talks, needs louder, longer speech to count', () => {
    const quiet = new VoiceActivityDetector(RATE);
    quiet.bargeIn = true;
    assert.deepEqual(feed(quiet, silence(500), scaled(words, 0.05), silence(1000)), [], 'a faint echo of speech does not barge in');
    const loud = new VoiceActivityDetector(RATE);
    loud.bargeIn = true;
    const changes = feed(loud, silence(500), words, silence(1000));
    assert.equal(changes[0]?.type, 'speech-start');
    assert.ok(changes[0]!.atMs < 500 + 500, `barged in at ${changes[0]!.atMs} ms`);
  });

  it('hears speech at rates libfvad cannot take (22.05, 24, 44.1, 96 kHz) by resampling it, and hands the turn on at 16 kHz', () => {
    for (const rate of [22050, 24000, 44100, 96000]) {
      const resampled = Int16Array.from(resample(joinSamples(silence(1000), words, silence(1500)), RATE, rate));
      const detector = new VoiceActivityDetector(rate);
      const changes: VoiceChange[] = [];
      const slice = rate / 50;
      for (let i = 0; i < resampled.length; i += slice) changes.push(...detector.push(resampled.subarray(i, i + slice)));
      detector.close();
      assert.deepEqual(
        changes.map((c) => c.type),
        ['speech-start', 'pause', 'speech-end'],
        `at ${rate} Hz`,
      );
      const end = changes[2]!;
      assert.ok(end.type === 'speech-end' && end.sampleRate === 16000, `the turn at ${rate} Hz is handed on at 16 kHz`);
      const turnMs = (end.samples.length / end.sampleRate) * 1000;
      const spokenMs = (words.length / RATE) * 1000;
      assert.ok(turnMs > spokenMs * 0.8 && turnMs < spokenMs + 600, `at ${rate} Hz the turn holds ${turnMs} ms of ${spokenMs} ms spoken`);
    }
  });

  it('reports a pause with the audio so far, which is the whole turn when no speech follows', () => {
    const changes = feed(new VoiceActivityDetector(RATE), silence(500), words, silence(1500));
    const pause = changes[1]!;
    const end = changes[2]!;
    assert.ok(pause.type === 'pause' && end.type === 'speech-end');
    const pausedAfterWords = pause.atMs - (500 + lastSoundMs(words));
    assert.ok(pausedAfterWords > 100 && pausedAfterWords < 400, `the pause was reported ${pausedAfterWords} ms after the words`);
    assert.deepEqual(pause.samples, end.samples, "the audio at the pause is the turn's");
  });

  it('a pause followed by more speech is reported, then the speech going on, and the turn holds both parts', () => {
    const tail = (words.length / RATE) * 1000 - lastSoundMs(words);
    const spoken = words.subarray(0, Math.ceil(((lastSoundMs(words) + 20) * RATE) / 1000));
    const changes = feed(new VoiceActivityDetector(RATE), silence(500), spoken, silence(400), words, silence(1500));
    assert.ok(tail > 100, `espeak-ng's speech ends in ${tail} ms of silence`);
    assert.deepEqual(
      changes.map((c) => c.type),
      ['speech-start', 'pause', 'resume', 'pause', 'speech-end'],
    );
    const [first, second, end] = [changes[1]!, changes[3]!, changes[4]!];
    assert.ok(first.type === 'pause' && second.type === 'pause' && end.type === 'speech-end');
    assert.ok(second.samples.length > first.samples.length * 1.8, 'the second pause carries both parts');
    assert.deepEqual(second.samples, end.samples);
  });

  it('the listener sets how long a pause ends the turn: longer waits through a pause, shorter ends at once', () => {
    const patient = new VoiceActivityDetector(RATE);
    const first = feed(patient, silence(500), words, silence(300));
    assert.deepEqual(
      first.map((c) => c.type),
      ['speech-start', 'pause'],
    );
    patient.hangoverMs = 1500;
    assert.equal(patient.endIfOver(), null, 'a 300 ms pause does not end a turn that waits 1.5 s');
    assert.deepEqual(
      feed(patient, silence(900)).map((c) => c.type),
      [],
      'still waiting after 1.2 s of silence',
    );
    assert.deepEqual(
      feed(patient, silence(400)).map((c) => c.type),
      ['speech-end'],
    );
    const quick = new VoiceActivityDetector(RATE);
    feed(quick, silence(500), words, silence(240));
    quick.hangoverMs = PAUSE_MS;
    assert.equal(quick.endIfOver()?.type, 'speech-end', 'a shortened wait that has passed ends the turn now');
    assert.equal(quick.endIfOver(), null, 'once');
    quick.hangoverMs = 10;
    assert.equal(quick.hangoverMs, PAUSE_MS, 'never shorter than the pause that is reported');
    quick.hangoverMs = Number.NaN;
    assert.equal(quick.hangoverMs, 600);
  });

  it('refuses rates no audio frame may carry', () => {
    for (const rate of [0, 7999, 96001, 22050.5]) assert.throws(() => new VoiceActivityDetector(rate), /between 8 and 96 kHz/);
  });
});
