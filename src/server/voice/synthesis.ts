// PLACEHOLDER until the voice branch lands: the synthesiser interface only.
import type { Viseme } from '../../protocol/visemes.js';

export interface VoiceChoice {
  language: string;
  voice?: string;
}
export type SynthesisEvent =
  | { type: 'audio'; samples: Int16Array }
  | { type: 'word'; atMs: number; text: string }
  | { type: 'viseme'; atMs: number; viseme: Viseme };
export interface SynthesisStream {
  sampleRate: number;
  events: AsyncIterable<SynthesisEvent>;
}
export interface Synthesizer {
  readonly name: string;
  synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream>;
}
export function createSynthesizer(_deps: unknown): Synthesizer {
  return { name: 'none', synthesize: () => Promise.reject(new Error('no speech engine yet')) };
}
