// What a synthesiser is: a short text in, a stream of samples with word and mouth-shape timing out. The
// engines (espeak.ts, openai-speech.ts) implement it and synthesis.ts picks one; they all import this file
// and none imports synthesis.ts, so the engines and the module choosing among them form no cycle.
import type { Viseme } from '../../../protocol/visemes.js';

/** The local voice's rate when a choice names none: eSpeak's own default, in words per minute. */
export const DEFAULT_WORDS_PER_MINUTE = 175;

export interface VoiceChoice {
  /** BCP-47 primary language, e.g. 'en', 'de'. */
  language: string;
  /** A provider voice name (the PAL's `layers.tts` voice). */
  voice?: string;
  /** Speaking rate in words per minute (the local voice). */
  rate?: number;
  /**
   * A later piece of an utterance whose first piece is already on its way: the audio before it gives it
   * slack, so the local voice may keep it waiting for a speaker while a room waits for its first words.
   */
  continues?: boolean;
}

export type SynthesisEvent =
  | { type: 'audio'; samples: Int16Array }
  /** A word starts this far into the text's audio. */
  | { type: 'word'; atMs: number; text: string }
  /**
   * The mouth takes this shape from this point on. `leadsIn`: the sound has no mouth shape of its own (h): the
   * mouth already holds the vowel after it, if one follows (leadInShape).
   */
  | { type: 'viseme'; atMs: number; viseme: Viseme; leadsIn?: boolean };

export interface SynthesisStream {
  sampleRate: number;
  events: AsyncIterable<SynthesisEvent>;
}

export interface Synthesizer {
  readonly name: string;
  /** Synthesises one short text; the stream ends after its last sample. Rejects (or the stream throws) a SynthesisError. */
  synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream>;
  /** The same voice for one room: its sentences wait in a lane of their own, served in turn with other rooms'. */
  lane?(key: string): Synthesizer;
  close?(): void;
}

export class SynthesisError extends Error {
  constructor(
    readonly code: 'unavailable' | 'provider_failed' | 'unsupported_language',
    message: string,
  ) {
    super(message);
  }
}
