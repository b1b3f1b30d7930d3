// How the service gives the PAL a voice: a synthesiser turns a short text (a sentence or two) into a
// stream of samples with word and mouth-shape timing. eSpeak NG on this machine by default; an
// OpenAI-compatible speech endpoint when one is configured, falling back to eSpeak when it fails.
import type { Viseme } from '../../../protocol/visemes.js';
import type { ServiceDeps } from '../../app/context.js';
import { EspeakSynthesizer } from './espeak.js';
import { OpenAiSpeech } from './openai-speech.js';

export interface VoiceChoice {
  /** BCP-47 primary language, e.g. 'en', 'de'. */
  language: string;
  /** A provider voice name (the PAL's `layers.tts` voice). */
  voice?: string;
  /** Speaking rate in words per minute (the local voice). */
  rate?: number;
}

export type SynthesisEvent =
  | { type: 'audio'; samples: Int16Array }
  /** A word starts this far into the text's audio. */
  | { type: 'word'; atMs: number; text: string }
  /** The mouth takes this shape from this point on. */
  | { type: 'viseme'; atMs: number; viseme: Viseme };

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
  constructor(readonly code: 'unavailable' | 'provider_failed' | 'unsupported_language', message: string) {
    super(message);
  }
}

/** The configured voice: the OpenAI-compatible endpoint with the local voice behind it, or the local voice. */
export function createSynthesizer(deps: Pick<ServiceDeps, 'config' | 'fetch' | 'log'>): Synthesizer {
  const local = new EspeakSynthesizer(deps.log, { dataDir: deps.config.dataDir });
  if (!deps.config.tts.baseUrl) return local;
  const remote = new OpenAiSpeech(deps);
  const withFallback = (fallback: Synthesizer): Synthesizer => ({
    name: `${remote.name}+${local.name}`,
    async synthesize(text, voice, signal) {
      try {
        return await remote.synthesize(text, voice, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        deps.log.error('speech provider failed; the local voice speaks instead', { error: error instanceof Error ? error.message : String(error) });
        return fallback.synthesize(text, voice, signal);
      }
    },
  });
  return { ...withFallback(local), lane: (key) => withFallback(local.lane(key)), close: () => local.close() };
}
