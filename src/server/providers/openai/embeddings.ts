// Embeddings (`POST …/embeddings`): one vector per input, in the order of the inputs.
import { OpenAiError, type OpenAiClient } from './client.js';

export interface EmbeddingsRequest {
  model: string;
  input: string[];
  /** Asked for; servers that ignore it answer with their own size. */
  dimensions?: number;
}

export async function createEmbeddings(client: OpenAiClient, request: EmbeddingsRequest, signal?: AbortSignal): Promise<number[][]> {
  const { model, input, dimensions } = request;
  const body = (await client.postJson('embeddings', 'embeddings', {
    body: { model, input, encoding_format: 'float', ...(dimensions ? { dimensions } : {}) },
    signal,
  })) as { data?: Array<{ index?: unknown; embedding?: unknown }> } | null;
  const data = body?.data;
  if (!Array.isArray(data) || data.length !== input.length)
    throw new OpenAiError('malformed', `${client.label} returned an unexpected body`);
  const ordered = [...data].sort((a, b) => (typeof a.index === 'number' ? a.index : 0) - (typeof b.index === 'number' ? b.index : 0));
  return ordered.map((d) => {
    if (!Array.isArray(d.embedding) || d.embedding.length === 0 || !d.embedding.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new OpenAiError('malformed', `${client.label} returned a malformed vector`);
    }
    return d.embedding as number[];
  });
}
