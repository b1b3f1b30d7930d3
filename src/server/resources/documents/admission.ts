// Starting a run: creation and recrawl, with the spec's rules checked under a per-owner lock so the
// limits (5 crawls at once, 100 crawl-backed documents, 1 recrawl per hour) hold under concurrency.
import type { ServiceDeps } from '../../platform/context.js';
import type { CrawlConfig } from '../../platform/db/tables/documents.js';
import { badRequest, conflict, tooManyRequests } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { notifyStatus } from './lifecycle.js';
import { INGEST_ATTEMPTS, INGEST_JOB, type IngestPayload } from './pipeline.js';
import {
  ACTIVE_CRAWLS_PER_OWNER,
  activeCrawls,
  CRAWL_DOCUMENTS_PER_OWNER,
  crawlDocuments,
  isCrawlBacked,
  lockOwnerCrawls,
  ownedDocument,
  type DocumentRow,
} from './repository.js';
import { CRAWL_LIMITS } from './schemas.js';

export const RECRAWL_COOLDOWN_MS = 60 * 60 * 1000;

export interface NewDocument {
  document_url: string;
  document_name?: string | undefined;
  callback_url?: string | undefined;
  tags?: string[] | undefined;
  crawl?: Partial<CrawlConfig> | undefined;
}

export function crawlSettings(requested: Partial<CrawlConfig>, base?: CrawlConfig | null): CrawlConfig {
  return {
    depth: requested.depth ?? base?.depth ?? CRAWL_LIMITS.depth.default,
    max_pages: requested.max_pages ?? base?.max_pages ?? CRAWL_LIMITS.max_pages.default,
  };
}

/** A name from the URL: its last path segment, else its host. */
function nameFromUrl(value: string): string {
  try {
    const url = new URL(value);
    const last = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    return (last || url.hostname || value).slice(0, 255);
  } catch {
    return value.slice(0, 255) || 'document';
  }
}

export async function createDocument(deps: ServiceDeps, ownerId: number, input: NewDocument): Promise<DocumentRow> {
  const crawl = input.crawl ? crawlSettings(input.crawl) : null;
  return deps.db.transaction().execute(async (trx) => {
    if (crawl) {
      await lockOwnerCrawls(trx, ownerId);
      await ensureCrawlDocumentRoom(trx, ownerId);
      await ensureCrawlSlot(trx, ownerId);
    }
    const now = deps.clock.now();
    const runId = newId('run_', 12);
    const row = await trx
      .insertInto('documents')
      .values({
        document_id: newId('d'),
        owner_id: ownerId,
        document_name: input.document_name ?? nameFromUrl(input.document_url),
        document_url: input.document_url,
        callback_url: input.callback_url ?? null,
        tags: JSON.stringify(input.tags ?? []),
        status: 'started',
        progress: null,
        crawl_config: crawl ? JSON.stringify(crawl) : null,
        run_crawl_config: crawl ? JSON.stringify(crawl) : null,
        run_id: runId,
        run_count: 1,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await deps.jobs.enqueue(INGEST_JOB, { document_id: row.document_id, run_id: runId } satisfies IngestPayload, {
      db: trx,
      maxAttempts: INGEST_ATTEMPTS,
    });
    await notifyStatus(deps, trx, row);
    return row;
  });
}

/** POST …/recrawl: the spec's transition `ready | error` → `recrawling`, or its error. */
export async function startRecrawl(
  deps: ServiceDeps,
  ownerId: number,
  documentId: string,
  override: Partial<CrawlConfig> | undefined,
): Promise<DocumentRow> {
  return deps.db.transaction().execute(async (trx) => {
    await lockOwnerCrawls(trx, ownerId);
    const doc = await ownedDocument(trx, ownerId, documentId, { forUpdate: true, messageBody: true });
    if (doc.status !== 'ready' && doc.status !== 'error') {
      throw conflict(`document ${documentId} is ${doc.status}; a recrawl can start only when it is ready or error`);
    }
    if (!doc.crawl_config && !override)
      throw badRequest(`document ${documentId} has no crawl configuration; supply crawl {depth, max_pages} in the body`);
    const config = crawlSettings(override ?? {}, doc.crawl_config);
    const now = deps.clock.now();
    if (doc.last_recrawl_at) {
      const waitMs = doc.last_recrawl_at.getTime() + RECRAWL_COOLDOWN_MS - now.getTime();
      if (waitMs > 0) {
        const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
        throw tooManyRequests(
          `recrawl_cooldown: document ${documentId} was recrawled within the last hour; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
          waitMs / 1000,
        );
      }
    }
    // A file recrawled with a `crawl` body becomes a crawl-backed document: it needs room under the limit.
    if (!isCrawlBacked(doc)) await ensureCrawlDocumentRoom(trx, ownerId);
    await ensureCrawlSlot(trx, ownerId);
    const runId = newId('run_', 12);
    const row = await trx
      .updateTable('documents')
      .set((eb) => ({
        status: 'recrawling',
        progress: null,
        error_message: null,
        run_id: runId,
        run_count: eb('run_count', '+', 1),
        run_crawl_config: JSON.stringify(config),
        last_recrawl_at: now,
        updated_at: now,
      }))
      .where('document_id', '=', documentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await deps.jobs.enqueue(INGEST_JOB, { document_id: documentId, run_id: runId } satisfies IngestPayload, {
      db: trx,
      maxAttempts: INGEST_ATTEMPTS,
    });
    await notifyStatus(deps, trx, row);
    return row;
  });
}

async function ensureCrawlDocumentRoom(trx: ServiceDeps['db'], ownerId: number): Promise<void> {
  const held = await crawlDocuments(trx, ownerId);
  if (held >= CRAWL_DOCUMENTS_PER_OWNER)
    throw badRequest(
      `crawl_document_limit: an account holds at most ${CRAWL_DOCUMENTS_PER_OWNER} crawled websites (you have ${held}); delete one first`,
    );
}

async function ensureCrawlSlot(trx: ServiceDeps['db'], ownerId: number): Promise<void> {
  const running = await activeCrawls(trx, ownerId);
  if (running >= ACTIVE_CRAWLS_PER_OWNER) {
    throw tooManyRequests(
      `too_many_concurrent_crawls: ${running} crawls are running for this account (at most ${ACTIVE_CRAWLS_PER_OWNER}); try again when one finishes`,
      60,
    );
  }
}
