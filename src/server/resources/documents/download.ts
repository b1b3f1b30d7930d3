// Fetches a document's file through the guarded fetch and maps every failure to the spec's codes.
import { OutboundBlockedError, OutboundTooLargeError, type GuardedFetch } from '../../platform/net/guarded-fetch.js';
import { CRAWLER_USER_AGENT } from './crawl/robots.js';
import { DocumentError } from './errors.js';

export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export interface Downloaded {
  bytes: Uint8Array;
  contentType: string;
  url: string;
}

/** The URL when it is an absolute http(s) address without credentials. */
export function parseDocumentUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DocumentError('invalid_file_url', 'document_url is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DocumentError('invalid_file_url', `scheme ${url.protocol} is not supported`);
  if (url.username || url.password) throw new DocumentError('invalid_file_url', 'URLs with credentials are not accepted');
  return url;
}

export async function download(fetch: GuardedFetch, value: string, signal?: AbortSignal, maxBytes = MAX_FILE_BYTES): Promise<Downloaded> {
  const url = parseDocumentUrl(value);
  try {
    const response = await fetch(url, {
      headers: { 'user-agent': CRAWLER_USER_AGENT },
      maxBytes,
      timeoutMs: 60_000,
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new DocumentError('file_download_failed', `the server answered ${response.status}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { bytes, contentType: response.headers.get('content-type') ?? '', url: response.url || url.toString() };
  } catch (error) {
    if (error instanceof DocumentError || signal?.aborted) throw error;
    if (isKind(error, OutboundTooLargeError)) throw new DocumentError('file_size_too_large', `files are limited to ${maxBytes} bytes`);
    if (isKind(error, OutboundBlockedError)) throw new DocumentError('file_download_failed', `refused: ${(error as Error).message}`);
    throw new DocumentError('file_download_failed', error instanceof Error ? error.message : String(error));
  }
}

/** The error or its cause (stream errors arrive wrapped) is of this class. */
function isKind(error: unknown, kind: new (...args: never[]) => Error): boolean {
  for (let e = error, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) if (e instanceof kind) return true;
  return false;
}
