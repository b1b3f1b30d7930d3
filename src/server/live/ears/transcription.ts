// The visitor's words from a turn (or the part of it heard so far), through the configured OpenAI-compatible
// transcription endpoint (PALKIT_STT_*, providers/openai): the audio goes as a WAV file with the model and
// language, asked to stream, and the words recognised so far are passed on as they come.
// Errors carry the provider's status.
import type { ServiceDeps } from '../../platform/context.js';
import { encodeWav } from '../../platform/audio/wav.js';
import { createTranscription, openAiClient, OpenAiError } from '../../providers/openai/index.js';

export class TranscriptionError extends Error {}

/** The words recognised so far (all of them, not the latest piece). */
export type OnWords = (soFar: string) => void;

export type Transcribe = (
  samples: Int16Array,
  sampleRate: number,
  language: string,
  signal: AbortSignal,
  onWords?: OnWords,
) => Promise<string>;

/** A transcriber for the configured endpoint, or undefined when the service has none. */
export function transcriber(deps: Pick<ServiceDeps, 'config' | 'fetch'>): Transcribe | undefined {
  const client = openAiClient(deps.config.stt, deps.fetch, 'transcription');
  if (!client) return undefined;
  const model = deps.config.stt.model ?? 'whisper-1';
  return async (samples, sampleRate, language, signal, onWords) => {
    try {
      return await createTranscription(
        client,
        { model, language, wav: encodeWav(samples, sampleRate), ...(onWords ? { onWords } : {}) },
        signal,
      );
    } catch (error) {
      throw error instanceof OpenAiError
        ? new TranscriptionError(error.message)
        : new TranscriptionError(`transcription failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
