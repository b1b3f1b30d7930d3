// Documents in SQL: the wire view, ownership checks, and the per-owner crawl limits.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { ApiError, notFound } from '../../platform/http/errors.js';
import { isoMillis } from '../../platform/time.js';

export type DocumentRow = Selectable<Database['documents']>;

/** Spec limits: crawls (and recrawls) running at once, and crawl-backed documents, per owner. */
export const ACTIVE_CRAWLS_PER_OWNER = 5;
export const CRAWL_DOCUMENTS_PER_OWNER = 100;
/** A status in which a run is under way. */
export const RUNNING_STATUSES = ['started', 'processing', 'recrawling'] as const;

export function documentView(row: DocumentRow) {
  const running = (RUNNING_STATUSES as readonly string[]).includes(row.status);
  const crawlConfig = (running ? row.run_crawl_config : null) ?? row.crawl_config;
  return {
    document_id: row.document_id,
    document_name: row.document_name,
    document_url: row.document_url,
    status: row.status,
    progress: row.status === 'processing' || row.status === 'recrawling' ? row.progress : null,
    ...(row.status === 'error' ? { error_message: row.error_message ?? 'contact_support' } : {}),
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
    // String fields of the spec's shape are omitted when absent, never null; the crawl fields appear
    // only for crawled websites (crawled_urls and last_crawled_at once a crawl completed).
    ...(row.callback_url ? { callback_url: row.callback_url } : {}),
    tags: row.tags,
    // While a run is under way, the settings in use for it (a recrawl may override them for that run).
    ...(crawlConfig ? { crawl_config: crawlConfig } : {}),
    ...(row.crawled_urls ? { crawled_urls: row.crawled_urls } : {}),
    ...(row.last_crawled_at ? { last_crawled_at: isoMillis(row.last_crawled_at) } : {}),
    crawl_count: row.crawl_count,
  };
}

export type DocumentView = ReturnType<typeof documentView>;

/** 404 whose body is `{message}` (the spec's form for a missing document on recrawl). */
export class MissingDocument extends ApiError {
  constructor(id: string) {
    super(404, `document ${id} not found`);
  }
  override get body() {
    return { message: this.message };
  }
}

/** The owner's document, or 404 (another owner's document is not revealed). */
export async function ownedDocument(
  db: Db,
  ownerId: number,
  id: string,
  options: { forUpdate?: boolean; messageBody?: boolean } = {},
): Promise<DocumentRow> {
  let q = db.selectFrom('documents').selectAll().where('document_id', '=', id).where('owner_id', '=', ownerId);
  if (options.forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw options.messageBody ? new MissingDocument(id) : notFound(`document ${id} not found`);
  return row;
}

/** Serialises crawl admissions of one owner for the rest of the transaction (limits cannot be overshot). */
export async function lockOwnerCrawls(trx: Db, ownerId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${0x646f63}, ${ownerId})`.execute(trx);
}

export async function activeCrawls(db: Db, ownerId: number): Promise<number> {
  const { n } = await db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('status', 'in', [...RUNNING_STATUSES])
    .where('run_crawl_config', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function crawlDocuments(db: Db, ownerId: number): Promise<number> {
  const { n } = await db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where((eb) => eb.or([eb('crawl_config', 'is not', null), eb('run_crawl_config', 'is not', null), eb('crawled_urls', 'is not', null)]))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Whether a document counts toward the 100 crawl-backed documents: created as a website, being crawled
 * now, or holding a finished crawl (a file recrawled with a `crawl` body becomes crawl-backed).
 */
export function isCrawlBacked(row: Pick<DocumentRow, 'crawl_config' | 'run_crawl_config' | 'crawled_urls'>): boolean {
  return row.crawl_config !== null || row.run_crawl_config !== null || row.crawled_urls !== null;
}
