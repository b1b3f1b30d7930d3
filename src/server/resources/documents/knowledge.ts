// What the live PAL asks of the knowledge base: the chunks of an owner's documents closest to a query.
import type { ServiceDeps } from '../../platform/context.js';
import { createEmbedder } from './embed/embedder.js';
import { searchChunks } from './vector-store.js';

export interface KnowledgeHit {
  document_id: string;
  document_name: string;
  content: string;
  score: number;
  source_url: string | null;
}

/**
 * Best chunks (highest cosine similarity first) among the owner's searchable documents whose id is in
 * `documentIds` OR that carry a tag of `documentTags`; none listed → no results. Searchable: `ready`,
 * and `recrawling` (the previous crawl's chunks stay in use until the recrawl succeeds).
 * Throws a DocumentError (`embedding_failed`) when a remote embeddings endpoint fails.
 */
export async function searchKnowledge(
  deps: ServiceDeps,
  input: { ownerId: number; documentIds: string[]; documentTags: string[]; query: string; limit?: number },
): Promise<KnowledgeHit[]> {
  const query = input.query.trim();
  if (!query || (input.documentIds.length === 0 && input.documentTags.length === 0)) return [];
  const embedder = createEmbedder(deps);
  const [vector] = await embedder.embed([query]);
  return searchChunks(
    deps.db,
    deps.hasVector,
    {
      ownerId: input.ownerId,
      documentIds: input.documentIds,
      tags: input.documentTags,
      embedder: embedder.id,
      limit: Math.max(1, Math.min(50, input.limit ?? 5)),
    },
    vector!,
    query,
  );
}
