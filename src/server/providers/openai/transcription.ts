// Transcription (`POST …/audio/transcriptions`, multipart/form-data with the audio as a WAV `file`,
// `model` and `language`): the answer is `{ "text": … }`.
import { OpenAiError, type OpenAiClient } from './client.js';

export interface TranscriptionRequest {
  model: string;
  language: string;
  wav: Uint8Array<ArrayBuffer>;
}

export async function createTranscription(client: OpenAiClient, request: TranscriptionRequest, signal?: AbortSignal): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([request.wav], { type: 'audio/wav' }), 'turn.wav');
  form.append('model', request.model);
  form.append('language', request.language);
  form.append('response_format', 'json');
  const body = (await client.postJson('audio/transcriptions', 'transcription', { body: form, signal })) as { text?: unknown } | null;
  if (typeof body?.text !== 'string') throw new OpenAiError('malformed', `${client.label} answered without text`);
  return body.text;
}
