// Embeddings behind one interface: the built-in local embedder by default (no download, deterministic),
// an OpenAI-compatible `/v1/embeddings` endpoint when PALKIT_EMBEDDINGS_BASE_URL is set.
import type { ServiceDeps } from '../../../platform/context.js';
import { HashedEmbedder } from './hashed.js';
import { OpenAiEmbedder } from './openai.js';
import type { Embedder } from './types.js';

export { EMBEDDING_DIMENSIONS } from './vector.js';

export type { Embedder } from './types.js';

export function createEmbedder(deps: Pick<ServiceDeps, 'config' | 'fetch'>): Embedder {
  const { baseUrl, apiKey, model } = deps.config.embeddings;
  if (baseUrl) return new OpenAiEmbedder({ baseUrl, apiKey, model: model ?? 'text-embedding-3-small', fetch: deps.fetch });
  return new HashedEmbedder();
}
