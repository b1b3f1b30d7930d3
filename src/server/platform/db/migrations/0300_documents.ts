// Knowledge documents (files and crawled websites) and their embedded chunks. Embeddings live in a
// pgvector `vector(256)` column where the extension exists (PGlite, PostgreSQL with pgvector) and in a
// portable `real[]` column otherwise; search ranks by cosine similarity either way.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './types.js';

const now = sql`now()`;

export async function up(db: Kysely<any>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('documents')
    .addColumn('document_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('document_name', 'text', (c) => c.notNull())
    .addColumn('document_url', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('source_kind', 'text')
    .addColumn('crawl_config', 'jsonb')
    .addColumn('run_crawl_config', 'jsonb')
    .addColumn('run_id', 'text')
    .addColumn('run_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('crawled_urls', 'jsonb')
    .addColumn('last_crawled_at', 'timestamptz')
    .addColumn('last_recrawl_at', 'timestamptz')
    .addColumn('crawl_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('documents_owner').on('documents').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('document_chunks')
    .addColumn('chunk_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.document_id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('embedder', 'text', (c) => c.notNull())
    .addColumn('embedding', ctx.hasVector ? sql`vector(256)` : sql`real[]`, (c) => c.notNull())
    // Lexical side of hybrid search (the local embedder knows words, not their rarity).
    .addColumn('content_tsv', sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('english', content)`).stored())
    .execute();
  // Search filters by document first and ranks that owner's chunks exactly (no approximate index, so a
  // filtered query never loses results to an ANN cut-off).
  await db.schema.createIndex('document_chunks_document').on('document_chunks').columns(['document_id', 'generation']).execute();
}
