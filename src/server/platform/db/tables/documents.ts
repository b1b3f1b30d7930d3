// Row types of the documents area (migration 0300).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, NullableTimestamp } from './core.js';

export type DocumentStatus = 'started' | 'processing' | 'ready' | 'error' | 'recrawling';
export interface CrawlConfig {
  depth: number;
  max_pages: number;
}

export interface DocumentTables {
  documents: {
    document_id: string;
    owner_id: number;
    document_name: string;
    document_url: string;
    callback_url: string | null;
    tags: Json<string[]>;
    status: DocumentStatus;
    progress: number | null;
    error_message: string | null;
    /** What the last run found: pdf, docx, html, text, markdown or website. */
    source_kind: string | null;
    /** Stored crawl settings (null for single files). */
    crawl_config: ColumnType<CrawlConfig | null, string | null, string | null>;
    /** Settings of the run in progress (a recrawl may override them for that run only). */
    run_crawl_config: ColumnType<CrawlConfig | null, string | null, string | null>;
    /** Identifies the current run; a job for an older run stops when it sees another value. */
    run_id: string | null;
    /** Runs started so far; the run number is the generation its chunks are written under. */
    run_count: Generated<number>;
    /** Generation of the chunks in use (0: none yet). */
    generation: Generated<number>;
    crawled_urls: ColumnType<string[] | null, string | null, string | null>;
    last_crawled_at: NullableTimestamp;
    last_recrawl_at: NullableTimestamp;
    crawl_count: Generated<number>;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  document_chunks: {
    chunk_id: Generated<number>;
    document_id: string;
    generation: number;
    seq: number;
    content: string;
    source_url: string | null;
    /** Which embedder produced the vector; search compares only vectors of the active embedder. */
    embedder: string;
    embedding: ColumnType<unknown, string, string>;
    content_tsv: ColumnType<unknown, never, never>;
  };
}
