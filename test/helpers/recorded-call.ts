// A recorded call for tests: joins a local room as the visitor and speaks a tone into the microphone in
// real time (20 ms frames at 16 kHz), then ends the conversation.
import { AHEAD_MS } from '../../src/server/live/recording/call-recorder.js';
import type { RoomClient } from './live-fixtures.js';
import { MICROPHONE_RATE as RATE, talk } from './voice.js';

export async function speakTone(client: RoomClient, seconds: number): Promise<void> {
  const samples = new Int16Array(Math.round(seconds * RATE));
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE));
  await talk(client, samples);
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
