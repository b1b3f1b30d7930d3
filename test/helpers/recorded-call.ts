// A recorded call for tests: joins a local room as the visitor and speaks a tone into the microphone in
// real time (20 ms frames at 16 kHz), then ends the conversation.
import { AudioFrameKind, encodeAudioFrame } from '../../src/protocol/room.js';
import { RoomClient } from './live-fixtures.js';

const RATE = 16_000;
const FRAME = 320;

export async function speakTone(client: RoomClient, seconds: number): Promise<void> {
  const frames = Math.round((seconds * RATE) / FRAME);
  const start = performance.now();
  for (let f = 0; f < frames; f++) {
    const samples = new Int16Array(FRAME);
    for (let i = 0; i < FRAME; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (f * FRAME + i)) / RATE));
    client.socket.send(encodeAudioFrame({ kind: AudioFrameKind.microphone, viseme: 0, sampleRate: RATE, samples }));
    const due = start + ((f + 1) * FRAME * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
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
