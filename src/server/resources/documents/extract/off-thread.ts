// Extraction on a worker thread: PDF, DOCX and HTML of many megabytes take seconds of CPU, which on the
// service's own thread would stall every request and call meanwhile. One short-lived worker per file,
// given its own copy of the bytes. From the source checkout the worker runs the TypeScript entry with
// tsx; in the built package it is dist/server/extract-worker.js.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../../../package-root.js';
import { DocumentError, type DocumentErrorCode } from '../errors.js';
import type { Extracted } from './index.js';

export interface ExtractRequest {
  bytes: Uint8Array;
  contentType: string;
  url: string;
}

export type ExtractReply = { ok: Extracted } | { error: { code: DocumentErrorCode; message: string } };

const running = import.meta.url.endsWith('.ts');
const workerUrl = pathToFileURL(running
  ? join(packageRoot, 'src/server/resources/documents/extract/worker-entry.ts')
  : join(packageRoot, 'dist/server/extract-worker.js'));

export function extractOffThread(bytes: Uint8Array, contentType: string, url: string): Promise<Extracted> {
  if (!running && !existsSync(workerUrl)) throw new DocumentError('document_processing_failed', 'the extraction worker is missing from this build');
  const copy = new Uint8Array(bytes);
  return new Promise<Extracted>((resolve, reject) => {
    const options = { workerData: { bytes: copy, contentType, url } satisfies ExtractRequest, transferList: [copy.buffer] };
    // A worker does not inherit the main thread's module hooks: from the source it registers tsx itself.
    const worker = running
      ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); });`, { ...options, eval: true })
      : new Worker(workerUrl, options);
    let settled = false;
    worker.once('message', (reply: ExtractReply) => {
      settled = true;
      if ('ok' in reply) resolve(reply.ok);
      else reject(Object.assign(new DocumentError(reply.error.code, ''), { message: reply.error.message }));
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
