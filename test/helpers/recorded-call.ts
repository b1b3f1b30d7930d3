// A recorded call for tests: the visitor speaks a tone into the microphone (20 ms frames at 16 kHz), in
// real time (speakTone, for a service in another process) or on the service's ManualClock (speakToneOn).
import { AHEAD_MS } from '../../src/server/live/recording/call-recorder.js';
import type { ManualClock } from './clock.js';
import type { RoomClient } from './live-fixtures.js';
import { MICROPHONE_FRAME as FRAME, MICROPHONE_RATE as RATE, sendMicrophoneFrame, talk } from './voice.js';

/** A 440 Hz tone of amplitude 8000 (mean |x| ≈ 5100). */
function tone(seconds: number): Int16Array {
  const samples = new Int16Array(Math.round(seconds * RATE));
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE));
  return samples;
}

export async function speakTone(client: RoomClient, seconds: number): Promise<void> {
  await talk(client, tone(seconds));
}

/** The tone goes out a fifth of a second at a time: 5 round trips a second, well inside the room's 10 JSON frames a second. */
const STEP = RATE / 5;

/**
 * The PAL's first lines are over: a recorded call's disclosure ("This call is recorded.") and the
 * greeting. Its voice is paced on the wire in real time, so a tone spoken on a manual clock waits for
 * them: they then lie in the call's first second, placed while the clock stood still, and the tone does
 * not cut the greeting short (a visitor's voice interrupts it) while the clock moves.
 */
export async function greeted(client: RoomClient): Promise<void> {
  await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 10_000, 2);
}

/**
 * Speaks the tone on the service's clock: each fifth of a second of frames is sent, read by the room (a
 * message the visitor sends itself comes back after them: the room reads a participant's frames in
 * order), and then the clock moves on by as long as it lasts. The room hears it exactly as it would in
 * real time, whatever the machine's load.
 */
export async function speakToneOn(clock: ManualClock, client: RoomClient, seconds: number): Promise<void> {
  const samples = tone(seconds);
  for (let i = 0, step = 0; i < samples.length; i += STEP, step++) {
    const chunk = samples.subarray(i, i + STEP);
    for (let j = 0; j < chunk.length; j += FRAME) {
      sendMicrophoneFrame(client, chunk.subarray(j, j + FRAME));
    }
    client.send({ type: 'app-message', data: { spoken: step }, to: client.participantId });
    await client.waitFor((f) => f.type === 'app-message' && (f.data as { spoken?: number } | null)?.spoken === step);
    await clock.advance((chunk.length / RATE) * 1000);
  }
}

/**
 * A recording is as long as its call: at least the tone spoken into it, at most the time the test saw
 * from joining to the end (a loaded machine makes the call longer than the tone, never shorter), plus
 * what the recorder may place ahead of the call's clock (a burst of frames that a busy service read late
 * is kept whole, after the audio before it).
 */
export function assertCallLength(duration: number, toneSeconds: number, callSeconds: number): void {
  if (duration >= toneSeconds - 0.1 && duration <= callSeconds + AHEAD_MS / 1000 + 0.05) return;
  throw new Error(`a recording of ${duration} s: expected the ${toneSeconds} s tone, within the ${callSeconds.toFixed(3)} s call`);
}

/** Seconds since it was made. */
export function stopwatch(): () => number {
  const started = performance.now();
  return () => (performance.now() - started) / 1000;
}

/** Mean absolute sample value of a 16-bit WAV's data between two times (seconds). */
export function loudness(wav: Buffer, from: number, to: number): number {
  const data = wav.subarray(44);
  const a = Math.floor(from * RATE);
  const b = Math.min(Math.floor(to * RATE), data.length / 2);
  let sum = 0;
  for (let i = a; i < b; i++) sum += Math.abs(data.readInt16LE(i * 2));
  return b > a ? sum / (b - a) : 0;
}
