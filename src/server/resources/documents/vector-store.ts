// Chunks and their embeddings in SQL. With pgvector: a `vector(256)` column ranked by cosine distance
// (`<=>`); without it: a `real[]` column ranked by the dot product of unit vectors computed in SQL.
// Ranking is hybrid: cosine similarity plus a lexical bonus from PostgreSQL full-text search (rare
// query words matter more), so a chunk naming the asked-for thing wins over one that merely resembles it.
// Chunks are written under a generation number; a document shows only its active generation.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export interface ChunkRow {
  seq: number;
  content: string;
  source_url: string | null;
  embedding: number[];
}

const fmt = (v: number) => (Math.round(v * 1e7) / 1e7).toString();

function vectorValue(hasVector: boolean, vector: number[]): RawBuilder<string> {
  return hasVector ? sql<string>`${`[${vector.map(fmt).join(',')}]`}::vector` : sql<string>`${`{${vector.map(fmt).join(',')}}`}::real[]`;
}

/** Rows per insert: small enough that one (about 1 ms a row on PGlite, which runs in this thread) keeps a live room's audio flowing. */
const INSERT_BATCH = 25;

export async function insertChunks(
  db: Db,
  hasVector: boolean,
  target: { documentId: string; generation: number; embedder: string },
  rows: ChunkRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await yieldToEventLoop(); // PGlite writes in this thread: let requests in between the inserts
    await db
      .insertInto('document_chunks')
      .values(
        rows.slice(i, i + INSERT_BATCH).map((r) => ({
          document_id: target.documentId,
          generation: target.generation,
          seq: r.seq,
          content: r.content,
          source_url: r.source_url,
          embedder: target.embedder,
          embedding: vectorValue(hasVector, r.embedding),
        })),
      )
      .execute();
  }
}

export async function deleteGeneration(db: Db, documentId: string, generation: number): Promise<void> {
  await db.deleteFrom('document_chunks').where('document_id', '=', documentId).where('generation', '=', generation).execute();
}

export interface SearchFilter {
  ownerId: number;
  /** Documents to search: these ids, or any carrying one of these tags. Both undefined: all the owner's. */
  documentIds?: string[] | undefined;
  tags?: string[] | undefined;
  embedder: string;
  limit: number;
}

export interface ChunkHit {
  document_id: string;
  document_name: string;
  content: string;
  source_url: string | null;
  score: number;
}

/** Best chunks of searchable documents (ready, or recrawling with the previous crawl's chunks in use). */
/** An OR query of the words of the text (letters and digits only, so it is always valid tsquery syntax). */
export function lexicalQuery(text: string): string {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])].slice(0, 32);
  return words.join(' | ');
}

/** Weight of the lexical bonus (ts_rank normalised to 0–1) against cosine similarity. */
const LEXICAL_WEIGHT = 0.5;

export async function searchChunks(
  db: Db,
  hasVector: boolean,
  filter: SearchFilter,
  query: number[],
  queryText: string,
): Promise<ChunkHit[]> {
  const scoped = filter.documentIds !== undefined || filter.tags !== undefined;
  const ids = filter.documentIds ?? [];
  const tags = filter.tags ?? [];
  if (scoped && ids.length === 0 && tags.length === 0) return [];
  const cosine = hasVector
    ? sql<number>`1 - (c.embedding <=> ${vectorValue(true, query)})`
    : sql<number>`(select coalesce(sum(a * b), 0) from unnest(c.embedding, ${vectorValue(false, query)}) as t(a, b))`;
  const words = lexicalQuery(queryText);
  const score = words ? sql<number>`${cosine} + ${LEXICAL_WEIGHT} * ts_rank(c.content_tsv, to_tsquery('english', ${words}), 32)` : cosine;
  const rows = await db
    .selectFrom('document_chunks as c')
    .innerJoin('documents as d', (j) => j.onRef('d.document_id', '=', 'c.document_id').onRef('d.generation', '=', 'c.generation'))
    .select(['d.document_id', 'd.document_name', 'c.content', 'c.source_url', score.as('score')])
    .where('d.owner_id', '=', filter.ownerId)
    .where('d.status', 'in', ['ready', 'recrawling'])
    .where('c.embedder', '=', filter.embedder)
    .$if(scoped, (q) =>
      q.where((eb) =>
        eb.or([
          ...(ids.length ? [eb('d.document_id', 'in', ids)] : []),
          ...tags.map((tag) => eb(sql`d.tags`, '@>', sql`${JSON.stringify([tag])}::jsonb`)),
        ]),
      ),
    )
    .orderBy('score', 'desc')
    .orderBy('c.chunk_id')
    .limit(filter.limit)
    .execute();
  return rows.map((r) => ({
    document_id: r.document_id,
    document_name: r.document_name,
    content: r.content,
    source_url: r.source_url,
    score: Math.round(Number(r.score) * 1e4) / 1e4,
  }));
}
