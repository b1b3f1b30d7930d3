// Knowledge search over a PAL's documents (the local PAL answers from it when no language model is configured).
import type { ServiceDeps } from '../../context.js';

export interface KnowledgeHit {
  document_id: string;
  document_name: string;
  content: string;
  score: number;
  source_url: string | null;
}

/** The passages of the owner's documents (by id or tag) closest to `query`, best first. */
export async function searchKnowledge(
  deps: ServiceDeps,
  input: { ownerId: number; documentIds: string[]; documentTags: string[]; query: string; limit?: number },
): Promise<Array<{ document_id: string; document_name: string; content: string; score: number; source_url: string | null }>> {
  // replaced by the documents area
  void deps;
  void input;
  return [];
}
