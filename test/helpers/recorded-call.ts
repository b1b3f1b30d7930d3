// A recorded call for tests: joins a local room as the visitor and speaks a tone into the microphone in
// real time (20 ms frames at 16 kHz), then ends the conversation.
import type { RoomClient } from './live-fixtures.js';
import { MICROPHONE_RATE as RATE, talk } from './voice.js';

export async function speakTone(client: RoomClient, seconds: number): Promise<void> {
  const samples = new Int16Array(Math.round(seconds * RATE));
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE));
  await talk(client, samples);
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
