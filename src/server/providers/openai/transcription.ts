// Transcription (`POST …/audio/transcriptions`, multipart/form-data with the audio as a WAV `file`,
// `model`, `language` and `stream=true`). A streaming recogniser answers server-sent
// `transcript.text.delta` events (each piece of text as it is recognised, passed on as the words so far)
// ended by `transcript.text.done` with the whole text; one that does not stream (whisper-1) answers
// `{ "text": … }`, which is read the same.
import { OpenAiError, type OpenAiClient } from './client.js';
import { ServerSentEventsError, sseData } from './sse.js';

export interface TranscriptionRequest {
  model: string;
  language: string;
  wav: Uint8Array<ArrayBuffer>;
  /** The words recognised so far, each time more arrive. */
  onWords?: (soFar: string) => void;
}

/** A turn's text is at most this long (30 s of speech is a few hundred words); a longer answer is cut. */
const MAX_TEXT = 8000;

export async function createTranscription(client: OpenAiClient, request: TranscriptionRequest, signal?: AbortSignal): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([request.wav], { type: 'audio/wav' }), 'turn.wav');
  form.append('model', request.model);
  // No language: the recogniser detects the one spoken (a PAL created without languages).
  if (request.language) form.append('language', request.language);
  form.append('response_format', 'json');
  form.append('stream', 'true');
  const response = await client.post('audio/transcriptions', 'transcription', {
    body: form,
    signal,
    accept: 'text/event-stream, application/json',
  });
  if (/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? ''))
    return streamedText(client, response, request.onWords, signal);
  let body: { text?: unknown } | null;
  try {
    body = JSON.parse(await response.text()) as { text?: unknown } | null;
  } catch {
    throw new OpenAiError('malformed', `${client.label} answered with something other than JSON`);
  }
  if (typeof body?.text !== 'string') throw new OpenAiError('malformed', `${client.label} answered without text`);
  return body.text.slice(0, MAX_TEXT);
}

/** The text of a streamed transcription: the done event's; a stream cut short of it is an error. */
async function streamedText(
  client: OpenAiClient,
  response: Response & { body: ReadableStream<Uint8Array> },
  onWords: ((soFar: string) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<string> {
  let soFar = '';
  try {
    for await (const data of sseData(client.chunks(response, signal))) {
      const event = parsed(data);
      if (event?.type === 'transcript.text.delta' && typeof event.delta === 'string' && event.delta) {
        if (soFar.length >= MAX_TEXT) continue;
        soFar = (soFar + event.delta).slice(0, MAX_TEXT);
        onWords?.(soFar);
      } else if (event?.type === 'transcript.text.done' && typeof event.text === 'string') {
        return event.text.slice(0, MAX_TEXT);
      } else if (event?.type === 'error' || event?.error !== undefined) {
        const message = typeof event.error?.message === 'string' ? event.error.message : 'unknown';
        throw new OpenAiError('status', client.redact(`${client.label} failed: ${message.slice(0, 200)}`));
      }
    }
  } catch (error) {
    if (error instanceof ServerSentEventsError) throw new OpenAiError('malformed', `${client.label}: ${error.message}`);
    throw error;
  }
  throw new OpenAiError('malformed', `${client.label}'s stream ended without its text`);
}

interface StreamEvent {
  type?: unknown;
  delta?: unknown;
  text?: unknown;
  error?: { message?: unknown };
}

function parsed(data: string): StreamEvent | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as StreamEvent) : null;
  } catch {
    return null; // a keep-alive or a line we do not understand
  }
}
