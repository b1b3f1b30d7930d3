// The extraction worker: reads one file's bytes (or one crawled page) into text on a thread of its own,
// so a large or crafted upload never holds up the service's event loop. Started from off-thread.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { DocumentError } from '../errors.js';
import { extractHtml } from './html.js';
import { extract } from './index.js';
import type { ExtractRequest, ExtractReply } from './off-thread.js';

const request = workerData as ExtractRequest;
let reply: ExtractReply;
try {
  reply =
    'page' in request
      ? { page: extractHtml(request.page, request.url) }
      : { ok: await extract(request.bytes, request.contentType, request.url) };
} catch (error) {
  reply =
    error instanceof DocumentError
      ? { error: { code: error.code, message: error.message } }
      : {
          error: {
            code: 'document_processing_failed',
            message: `document_processing_failed: ${error instanceof Error ? error.message : String(error)}`,
          },
        };
}
parentPort!.postMessage(reply);
