// Speech (`POST …/audio/speech` with `response_format: "pcm"`): raw 16-bit mono PCM at 24 kHz, read
// across chunks that may split a sample.
import { OpenAiError, type OpenAiClient } from './client.js';

export const OPENAI_SPEECH_RATE = 24_000;

export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
}

export async function createSpeech(client: OpenAiClient, request: SpeechRequest, signal: AbortSignal): Promise<Int16Array> {
  const response = await client.post('audio/speech', 'speech', { body: { ...request, response_format: 'pcm' }, signal });
  const parts: Buffer[] = [];
  for await (const chunk of client.chunks(response, signal)) parts.push(Buffer.from(chunk));
  const bytes = Buffer.concat(parts);
  if (bytes.length < 2) throw new OpenAiError('malformed', `${client.label} sent no audio`);
  const samples = new Int16Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}
