// The ingestion job: download (or crawl) → extract text → chunk → embed → store under a new
// generation → switch to it. Re-runs (after a crash, or a lease that expired because the process was
// killed) start the run again from scratch after dropping what the earlier attempt wrote; once the
// attempts are used up the document settles in `error` instead of staying in `processing`.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ServiceDeps } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { chunksOf } from './chunk.js';
import { crawl } from './crawl/crawler.js';
import { download, parseDocumentUrl } from './download.js';
import { createEmbedder, type Embedder } from './embed/embedder.js';
import { DocumentError, type DocumentErrorCode } from './errors.js';
import { extractOffThread } from './extract/off-thread.js';
import { beginRun, completeRun, failRun, reportProgress, Superseded, type Run } from './lifecycle.js';
import { RUNNING_STATUSES } from './repository.js';
import { deleteGeneration, insertChunks, type ChunkRow } from './vector-store.js';

export const INGEST_JOB = 'documents.ingest';
export const INGEST_ATTEMPTS = 3;
/** More chunks than this (about 8 MB of text) is refused as `chunking_failed`. */
export const MAX_CHUNKS = 10_000;
const EMBED_BATCH = 64;
/** Failures worth another attempt (a remote embedder or the database may recover). */
const RETRYABLE: DocumentErrorCode[] = ['embedding_failed', 'vector_store_failed'];

export interface IngestPayload {
  document_id: string;
  run_id: string;
}

interface Section {
  text: string;
  sourceUrl: string | null;
}

export function ingestJob(deps: ServiceDeps, embedder: Embedder = createEmbedder(deps)): JobHandler<IngestPayload> {
  const { db, log } = deps;
  return async ({ payload, attempt, maxAttempts, signal }) => {
    const doc = await db.selectFrom('documents').selectAll().where('document_id', '=', payload.document_id).executeTakeFirst();
    if (!doc || doc.run_id !== payload.run_id || !(RUNNING_STATUSES as readonly string[]).includes(doc.status)) return;
    const run: Run = {
      documentId: doc.document_id,
      runId: payload.run_id,
      ownerId: doc.owner_id,
      generation: doc.run_count,
      crawl: doc.run_crawl_config,
    };
    const giveUpCode: DocumentErrorCode = run.crawl ? 'website_processing_failed' : 'contact_support';
    if (attempt > maxAttempts) {
      // The lease of an interrupted run expired once too often: settle instead of looping.
      log.info('document run interrupted too often', { document_id: run.documentId, attempt });
      await failRun(deps, run, giveUpCode);
      return;
    }
    await deleteGeneration(db, run.documentId, run.generation); // what an interrupted attempt left behind
    try {
      await beginRun(deps, run);
      let lastPercent = 0;
      const progress = async (percent: number) => {
        if (Math.round(percent) === lastPercent) return;
        lastPercent = Math.round(percent);
        await reportProgress(deps, run, percent);
      };
      const { sections, sourceKind, crawledUrls } = run.crawl
        ? await crawlSite(deps, doc.document_url, run, progress, signal)
        : await readFile(deps, doc.document_url, progress, signal);
      const chunks = await chunkSections(sections);
      await progress(60);
      const rows: ChunkRow[] = [];
      for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
        const batch = chunks.slice(i, i + EMBED_BATCH);
        await yieldToEventLoop(); // a local embedder computes in this thread: let requests in between batches
        const vectors = await embedBatch(
          embedder,
          batch.map((c) => c.text),
          signal,
        );
        batch.forEach((c, k) => rows.push({ seq: i + k, content: c.text, source_url: c.sourceUrl, embedding: vectors[k]! }));
        await progress(60 + (30 * Math.min(chunks.length, i + EMBED_BATCH)) / chunks.length);
      }
      await store(deps, run, embedder.id, rows);
      await progress(95);
      await completeRun(deps, run, { sourceKind, crawledUrls });
    } catch (error) {
      if (signal.aborted) throw error; // shutting down: the lease expires and a later attempt re-runs it
      if (error instanceof Superseded) return;
      if (error instanceof DocumentError) {
        log.info('document failed', { document_id: run.documentId, error: error.message });
        if (RETRYABLE.includes(error.code) && attempt < maxAttempts) throw error;
        await failRun(deps, run, error.code);
        return;
      }
      if (attempt < maxAttempts) throw error;
      log.error('document run failed', { document_id: run.documentId, error: error instanceof Error ? error.message : String(error) });
      await failRun(deps, run, giveUpCode);
    }
  };
}

type Progress = (percent: number) => Promise<void>;
type Read = { sections: Section[]; sourceKind: string; crawledUrls: string[] | null };

async function readFile(deps: ServiceDeps, url: string, progress: Progress, signal: AbortSignal): Promise<Read> {
  const file = await download(deps.fetch, url, signal);
  await progress(20);
  const { kind, text } = await extractOffThread(file.bytes, file.contentType, file.url);
  await progress(40);
  return { sections: [{ text, sourceUrl: url }], sourceKind: kind, crawledUrls: null };
}

async function crawlSite(deps: ServiceDeps, url: string, run: Run, progress: Progress, signal: AbortSignal): Promise<Read> {
  const start = parseDocumentUrl(url).toString();
  const config = run.crawl!;
  const result = await crawl({
    startUrl: start,
    depth: config.depth,
    maxPages: config.max_pages,
    delayMs: deps.config.crawlDelayMs,
    fetch: deps.fetch,
    clock: deps.clock,
    signal,
    onPage: (accepted) => progress(5 + (50 * accepted) / config.max_pages),
  });
  if (result.pages.length === 0) {
    const failure = result.startFailure;
    throw new DocumentError(
      failure?.kind === 'download' ? 'file_download_failed' : 'website_processing_failed',
      failure?.detail ?? 'no page could be crawled',
    );
  }
  const sections = result.pages.map((p) => ({ text: p.text, sourceUrl: p.url }));
  if (!sections.some((s) => s.text.trim())) throw new DocumentError('website_processing_failed', 'the crawled pages contain no text');
  return { sections, sourceKind: 'website', crawledUrls: result.pages.map((p) => p.url) };
}

/** Chunks cut between two turns of the event loop given to requests (a few ms of work). */
const CHUNKS_PER_TURN = 100;

async function chunkSections(sections: Section[]): Promise<Array<{ text: string; sourceUrl: string | null }>> {
  // A chunk holds at most 800 characters, so a longer text surely makes too many: refuse it before
  // spending seconds of the event loop on chunking it.
  const characters = sections.reduce((n, s) => n + s.text.length, 0);
  if (characters > MAX_CHUNKS * 800)
    throw new DocumentError('chunking_failed', `${characters} characters make more than ${MAX_CHUNKS} chunks`);
  const out: Array<{ text: string; sourceUrl: string | null }> = [];
  try {
    for (const section of sections) {
      for (const text of chunksOf(section.text)) {
        out.push({ text, sourceUrl: section.sourceUrl });
        if (out.length % CHUNKS_PER_TURN === 0) await yieldToEventLoop();
        if (out.length > MAX_CHUNKS) throw new DocumentError('chunking_failed', `more than ${MAX_CHUNKS} chunks`);
      }
    }
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError('chunking_failed', error instanceof Error ? error.message : String(error));
  }
  if (out.length === 0) throw new DocumentError('file_empty', 'no text to index');
  return out;
}

async function embedBatch(embedder: Embedder, texts: string[], signal: AbortSignal): Promise<number[][]> {
  try {
    const vectors = await embedder.embed(texts, signal);
    if (vectors.length !== texts.length) throw new DocumentError('embedding_failed', 'the embedder returned a wrong number of vectors');
    return vectors;
  } catch (error) {
    if (error instanceof DocumentError || signal.aborted) throw error;
    throw new DocumentError('embedding_failed', error instanceof Error ? error.message : String(error));
  }
}

async function store(deps: ServiceDeps, run: Run, embedderId: string, rows: ChunkRow[]): Promise<void> {
  try {
    await insertChunks(deps.db, deps.hasVector, { documentId: run.documentId, generation: run.generation, embedder: embedderId }, rows);
  } catch (error) {
    const exists = await deps.db
      .selectFrom('documents')
      .select('document_id')
      .where('document_id', '=', run.documentId)
      .where('run_id', '=', run.runId)
      .executeTakeFirst();
    if (!exists) throw new Superseded(); // deleted meanwhile: its chunks cascade away
    throw new DocumentError('vector_store_failed', error instanceof Error ? error.message : String(error));
  }
}
