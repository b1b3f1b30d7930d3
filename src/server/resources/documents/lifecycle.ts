// Status transitions of a document run (started → processing → ready | error; recrawling → ready |
// error), each written with its status callback in one transaction. A run is identified by `run_id`:
// a job whose run is no longer current (document deleted) stops with Superseded.
import { sql } from 'kysely';
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { CrawlConfig } from '../../platform/db/tables/documents.js';
import type { DocumentErrorCode } from './errors.js';
import { documentView, type DocumentRow } from './repository.js';
import { deleteGeneration } from './vector-store.js';

export const STATUS_EVENT = 'document.status_changed';

export class Superseded extends Error {
  constructor() {
    super('the document was deleted or another run replaced this one');
  }
}

export interface Run {
  documentId: string;
  runId: string;
  ownerId: number;
  /** Generation the run's chunks are written under. */
  generation: number;
  crawl: CrawlConfig | null;
}

/** Sends the document's status callback (when it has a callback_url) inside the caller's transaction. */
export async function notifyStatus(deps: ServiceDeps, trx: Db, row: DocumentRow): Promise<void> {
  if (!row.callback_url) return;
  await deps.webhooks.send({
    ownerId: row.owner_id,
    url: row.callback_url,
    eventType: STATUS_EVENT,
    bodies: [{ event_type: STATUS_EVENT, ...documentView(row) }],
    db: trx,
  });
}

/** The run begins: `started` becomes `processing` (announced once; a re-run after a restart finds
 * `processing` already); progress starts at 0. */
export async function beginRun(deps: ServiceDeps, run: Run): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('documents')
      .select('status')
      .where('document_id', '=', run.documentId)
      .where('run_id', '=', run.runId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw new Superseded();
    const row = await trx
      .updateTable('documents')
      .set({ ...(current.status === 'started' ? { status: 'processing' as const, updated_at: deps.clock.now() } : {}), progress: 0 })
      .where('document_id', '=', run.documentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (current.status === 'started') await notifyStatus(deps, trx, row);
  });
}

export async function reportProgress(deps: ServiceDeps, run: Run, percent: number): Promise<void> {
  const row = await deps.db
    .updateTable('documents')
    .set({ progress: Math.max(0, Math.min(99, Math.round(percent))) })
    .where('document_id', '=', run.documentId)
    .where('run_id', '=', run.runId)
    .returning('document_id')
    .executeTakeFirst();
  if (!row) throw new Superseded();
}

export interface RunOutcome {
  sourceKind: string;
  crawledUrls: string[] | null;
}

/** Success: the new generation becomes the active one and the old chunks go, atomically. */
export async function completeRun(deps: ServiceDeps, run: Run, outcome: RunOutcome): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const row = await trx
      .updateTable('documents')
      .set({
        status: 'ready',
        progress: null,
        error_message: null,
        generation: run.generation,
        source_kind: outcome.sourceKind,
        run_crawl_config: null,
        updated_at: now,
        ...(outcome.crawledUrls
          ? { crawled_urls: JSON.stringify(outcome.crawledUrls), last_crawled_at: now, crawl_count: sql`crawl_count + 1` as never }
          : {}),
      })
      .where('document_id', '=', run.documentId)
      .where('run_id', '=', run.runId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new Superseded();
    await trx.deleteFrom('document_chunks').where('document_id', '=', run.documentId).where('generation', '<>', run.generation).execute();
    await notifyStatus(deps, trx, row);
  });
}

/** Failure: status `error` with the code; the previous generation (if any) stays as it was. */
export async function failRun(deps: ServiceDeps, run: Run, code: DocumentErrorCode): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('documents')
      .set({ status: 'error', progress: null, error_message: code, run_crawl_config: null, updated_at: deps.clock.now() })
      .where('document_id', '=', run.documentId)
      .where('run_id', '=', run.runId)
      .where('status', 'in', ['started', 'processing', 'recrawling'])
      .returningAll()
      .executeTakeFirst();
    if (!row) return;
    await deleteGeneration(trx, run.documentId, run.generation);
    await notifyStatus(deps, trx, row);
  });
}
