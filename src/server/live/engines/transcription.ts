// The visitor's words from a finished turn, through the configured OpenAI-compatible transcription
// endpoint (PALKIT_STT_*, providers/openai): the turn goes as a WAV file with the model and language.
// Errors carry the provider's status.
import type { ServiceDeps } from '../../app/context.js';
import { encodeWav } from '../../platform/audio/wav.js';
import { createTranscription, openAiClient, OpenAiError } from '../../providers/openai/index.js';

export class TranscriptionError extends Error {}

export type Transcribe = (samples: Int16Array, sampleRate: number, language: string, signal: AbortSignal) => Promise<string>;

/** A transcriber for the configured endpoint, or undefined when the service has none. */
export function transcriber(deps: Pick<ServiceDeps, 'config' | 'fetch'>): Transcribe | undefined {
  const client = openAiClient(deps.config.stt, deps.fetch, 'transcription');
  if (!client) return undefined;
  const model = deps.config.stt.model ?? 'whisper-1';
  return async (samples, sampleRate, language, signal) => {
    try {
      return await createTranscription(client, { model, language, wav: encodeWav(samples, sampleRate) }, signal);
    } catch (error) {
      throw error instanceof OpenAiError ? new TranscriptionError(error.message) : new TranscriptionError(`transcription failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
