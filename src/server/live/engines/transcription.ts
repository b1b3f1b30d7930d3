// The visitor's words from a finished turn, through an OpenAI-compatible transcription endpoint:
// POST {PALKIT_STT_BASE_URL}/audio/transcriptions, multipart/form-data with the turn as a WAV `file`,
// `model` and `language`; the answer is `{ "text": … }`. Errors carry the provider's status.
import type { ServiceDeps } from '../../app/context.js';

export class TranscriptionError extends Error {}

export type Transcribe = (samples: Int16Array, sampleRate: number, language: string, signal: AbortSignal) => Promise<string>;

/** A transcriber for the configured endpoint, or undefined when the service has none. */
export function transcriber(deps: Pick<ServiceDeps, 'config' | 'fetch'>): Transcribe | undefined {
  const { baseUrl, apiKey, model } = deps.config.stt;
  if (!baseUrl) return undefined;
  return async (samples, sampleRate, language, signal) => {
    const form = new FormData();
    form.append('file', new Blob([wav(samples, sampleRate)], { type: 'audio/wav' }), 'turn.wav');
    form.append('model', model ?? 'whisper-1');
    form.append('language', language);
    form.append('response_format', 'json');
    let response: Response;
    try {
      response = await deps.fetch(`${baseUrl}/audio/transcriptions`, {
        method: 'POST',
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        body: form,
        signal,
        timeoutMs: 30_000,
        maxBytes: 256 * 1024,
      });
    } catch (error) {
      throw new TranscriptionError(`transcription failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body = (await response.json().catch(() => null)) as { text?: unknown; error?: { message?: unknown } } | null;
    if (!response.ok) throw new TranscriptionError(`transcription answered ${response.status}${typeof body?.error?.message === 'string' ? `: ${body.error.message}` : ''}`);
    if (typeof body?.text !== 'string') throw new TranscriptionError('transcription answered without text');
    return body.text;
  };
}

/** 16-bit mono PCM as a WAV file. */
export function wav(samples: Int16Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i]!, true);
  return bytes;
}
