// Extraction on a worker thread: PDF, DOCX and HTML of many megabytes take seconds of CPU, which on the
// service's own thread would stall every request and call meanwhile. One short-lived worker per file
// (given its own copy of the bytes) and per large crawled page. From the source checkout the worker runs the TypeScript entry with
// tsx; in the built package (and the bundled demo service) it is @palkit/server's dist/extract-worker.js.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../../../platform/package-root.js';
import { DocumentError, type DocumentErrorCode } from '../errors.js';
import type { HtmlPage } from './html.js';
import type { Extracted } from './index.js';

export type ExtractRequest = { bytes: Uint8Array; contentType: string; url: string } | { page: string; url: string };

export type ExtractReply = { ok: Extracted } | { page: HtmlPage } | { error: { code: DocumentErrorCode; message: string } };

/** Crawled pages this large are read on a worker; smaller ones (nearly all) take milliseconds here. */
const PAGE_OFF_THREAD_CHARS = 256 * 1024;

const running = import.meta.url.endsWith('.ts');
const workerUrl = pathToFileURL(
  running ? join(packageRoot, 'resources/documents/extract/worker-entry.ts') : join(packageRoot, 'dist/extract-worker.js'),
);

export async function extractOffThread(bytes: Uint8Array, contentType: string, url: string): Promise<Extracted> {
  const copy = new Uint8Array(bytes);
  const reply = await runWorker({ bytes: copy, contentType, url }, [copy.buffer]);
  if (!('ok' in reply)) throw new DocumentError('document_processing_failed', 'the extraction worker gave no text');
  return reply.ok;
}

/** A crawled page's text and links: large pages on a worker, the rest here. */
export async function extractPage(html: string, url: string): Promise<HtmlPage> {
  if (html.length < PAGE_OFF_THREAD_CHARS) {
    // Loaded on the first crawled page, not with the service: htmlparser2 and its DOM packages serve crawls only.
    const { extractHtml } = await import('./html.js');
    return extractHtml(html, url);
  }
  const reply = await runWorker({ page: html, url }, []);
  if (!('page' in reply)) throw new DocumentError('website_processing_failed', 'the extraction worker gave no page');
  return reply.page;
}

function runWorker(request: ExtractRequest, transferList: ArrayBuffer[]): Promise<Exclude<ExtractReply, { error: unknown }>> {
  if (!running && !existsSync(workerUrl))
    throw new DocumentError('document_processing_failed', 'the extraction worker is missing from this build');
  return new Promise((resolve, reject) => {
    const options = { workerData: request, transferList };
    // A worker does not inherit the main thread's module hooks: from the source it registers tsx itself.
    const worker = running
      ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); });`, {
          ...options,
          eval: true,
        })
      : new Worker(workerUrl, options);
    let settled = false;
    worker.once('message', (reply: ExtractReply) => {
      settled = true;
      if ('error' in reply) reject(Object.assign(new DocumentError(reply.error.code, ''), { message: reply.error.message }));
      else resolve(reply);
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settled = true;
      reject(new DocumentError('document_processing_failed', `could not read the file: ${error.message}`));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new DocumentError('document_processing_failed', `the extraction worker stopped (exit code ${code})`));
    });
  });
}
