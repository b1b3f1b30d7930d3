// Embeddings behind one interface: the built-in local embedder by default (no download, deterministic),
// an OpenAI-compatible `/v1/embeddings` endpoint when PALKIT_EMBEDDINGS_BASE_URL is set.
import type { ServiceDeps } from '../../../app/context.js';
import { HashedEmbedder } from './hashed.js';
import { OpenAiEmbedder } from './openai.js';

export { EMBEDDING_DIMENSIONS } from './vector.js';

export interface Embedder {
  /** Stored with each chunk; only vectors of the same embedder are compared. */
  readonly id: string;
  /** One L2-normalised vector of EMBEDDING_DIMENSIONS per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export function createEmbedder(deps: Pick<ServiceDeps, 'config' | 'fetch'>): Embedder {
  const { baseUrl, apiKey, model } = deps.config.embeddings;
  if (baseUrl) return new OpenAiEmbedder({ baseUrl, apiKey, model: model ?? 'text-embedding-3-small', fetch: deps.fetch });
  return new HashedEmbedder();
}
