// A visitor's voice for room tests: words spoken by espeak-ng at 16 kHz, sent as a browser sends its
// microphone (20 ms audio frames, in real time).
import { execFileSync } from 'node:child_process';
import { bundledFfmpeg } from './ffmpeg.js';
import { AudioFrameKind, encodeAudioFrame } from '../../src/protocol/room.js';
import type { RoomClient } from './live-fixtures.js';

export const MICROPHONE_RATE = 16000;
/** A browser's microphone frame: 20 ms. */
export const MICROPHONE_FRAME = MICROPHONE_RATE / 50;

/** The words said once per file (two processes each: eSpeak, then ffmpeg); each caller gets its own copy. */
const said = new Map<string, Int16Array>();

export function speech(text: string): Int16Array {
  let samples = said.get(text);
  if (!samples) {
    const wav = execFileSync('espeak-ng', ['--stdout', '-s', '170', text]);
    const raw = execFileSync(
      bundledFfmpeg(),
      ['-loglevel', 'error', '-i', 'pipe:0', '-ar', String(MICROPHONE_RATE), '-ac', '1', '-f', 's16le', 'pipe:1'],
      { input: wav },
    );
    samples = new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
    said.set(text, samples);
  }
  return samples.slice();
}

/** Sends one microphone frame of samples at 16 kHz, as a browser does. */
export function sendMicrophoneFrame(client: RoomClient, samples: Int16Array): void {
  client.socket.send(encodeAudioFrame({ kind: AudioFrameKind.microphone, viseme: 0, sampleRate: MICROPHONE_RATE, samples }));
}

/** Sends the samples as a browser sends its microphone: 20 ms frames, in real time (the room drops audio sent faster). */
export async function talk(client: RoomClient, samples: Int16Array): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < samples.length; i += MICROPHONE_FRAME) {
    sendMicrophoneFrame(client, samples.subarray(i, i + MICROPHONE_FRAME));
    const wait = start + ((i + MICROPHONE_FRAME) * 1000) / MICROPHONE_RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}
