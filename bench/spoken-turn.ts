// A visitor's spoken question as the room receives it: real speech (espeak-ng, rendered once), cut into
// the microphone frames a browser sends (20 ms at 16 kHz, encoded once and shared by every visitor), and
// where in them the speech ends. Silence is one shared frame of zeros.
import { AUDIBLE } from '../src/palkit/client/transport/pal-audio.js';
import { AudioFrameKind, encodeAudioFrame } from '../src/protocol/room.js';
import { MICROPHONE_RATE, speech } from '../test/helpers/voice.js';

export const MIC_FRAME_MS = 20;
const FRAME_SAMPLES = (MICROPHONE_RATE * MIC_FRAME_MS) / 1000;

export interface SpokenTurn {
  text: string;
  frames: Uint8Array[];
  /** Where the last audible sample ends, in ms from the start of the first frame. */
  speechEndsMs: number;
}

const micFrame = (samples: Int16Array) =>
  encodeAudioFrame({ kind: AudioFrameKind.microphone, viseme: 0, sampleRate: MICROPHONE_RATE, samples });

export const SILENT_MIC_FRAME = micFrame(new Int16Array(FRAME_SAMPLES));

export function spokenTurn(text: string): SpokenTurn {
  const samples = speech(text);
  let last = samples.length - 1;
  while (last > 0 && Math.abs(samples[last]!) < AUDIBLE) last--;
  const frames: Uint8Array[] = [];
  for (let at = 0; at <= last; at += FRAME_SAMPLES) {
    const slice = new Int16Array(FRAME_SAMPLES); // the last frame padded with silence, as a microphone goes on
    slice.set(samples.subarray(at, Math.min(at + FRAME_SAMPLES, samples.length)));
    frames.push(micFrame(slice));
  }
  return { text, frames, speechEndsMs: ((last + 1) / MICROPHONE_RATE) * 1000 };
}
