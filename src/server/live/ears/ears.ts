// The PAL's ears, shared by the service's rooms: voice activity detection for each visitor's stream plus
// the configured transcriber. (Its voice is providers/voice/: synthesizerFor.)
import type { ServiceDeps } from '../../platform/context.js';
import { onePer } from '../../platform/one-per.js';
import { transcriber, type OnWords } from './transcription.js';
import { VoiceActivityDetector, type VoiceChange } from './vad.js';

/** Voice activity of one stream of 16-bit mono samples. */
export interface VoiceActivity {
  /** Feeds samples; returns what changed: speech began, paused or went on, or a turn ended with its audio (at the rate it carries). */
  push(samples: Int16Array): VoiceChange[];
  /** Frees what the detector holds (its WebAssembly instance); it hears nothing after. */
  close(): void;
  /** While the PAL talks, a louder, longer voice is needed to count as speech (its own echo must not). */
  bargeIn: boolean;
  /** The pause that ends the current turn; the words heard so far change it. */
  hangoverMs: number;
  /** Ends the turn now if its pause is already `hangoverMs` long. */
  endIfOver(): VoiceChange | null;
}

export interface Ears {
  /** Voice activity for one visitor's stream at this sample rate. */
  detector(sampleRate: number): VoiceActivity;
  /** Turns audio into text (passing the words so far as they come); absent when the service has no recogniser. */
  transcribe?: (samples: Int16Array, sampleRate: number, language: string, signal: AbortSignal, onWords?: OnWords) => Promise<string>;
}

/** The service's one pair of ears. */
export const earsFor = onePer((deps: ServiceDeps): Ears => {
  const transcribe = transcriber(deps);
  return { detector: (sampleRate) => new VoiceActivityDetector(sampleRate), ...(transcribe ? { transcribe } : {}) };
});
