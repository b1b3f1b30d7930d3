// The request body limit. Hono's bodyLimit reads `c.req.raw.body` first, which makes the Node adapter
// build a web ReadableStream (and a full Request) for every request, so that the body is then read
// through it instead of straight from the socket: a large share of a small request's cost. When
// Content-Length tells the size, as it does for every body but a chunked one, the size is checked
// from it (as Hono's bodyLimit does then too) and the body is left alone; a chunked body is counted as
// it is read.
//
// An oversized body is read and thrown away (up to DISCARD_BYTES, for at most DISCARD_MS) before the
// 413 is sent: a client still uploading when the answer comes and the connection closes sees a reset
// (EPIPE) instead of the 413. Past the bound the answer is sent anyway and the connection closed.
// A chunked body is drained through the same reader that counted it: once the adapter's web stream
// has the socket, it pauses the socket whenever nobody reads the stream, so reading the socket beside
// it stalled until DISCARD_MS (15 s for every oversized chunked request).
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';

const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 15_000;

export function limitBodySize(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const refuse = async (c: Context) => {
    await discardBody(c);
    return onError(c);
  };
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined)
      return parseInt(length || '0', 10) > maxSize ? refuse(c) : next();
    return counted(c, next, maxSize, onError);
  };
}

/** A chunked body: read and counted; within the limit the request goes on with it, past it the rest is drained. */
async function counted(
  c: Context,
  next: () => Promise<void>,
  maxSize: number,
  onError: (c: Context) => Response | Promise<Response>,
): Promise<Response | void> {
  const body = c.req.raw.body;
  if (!body) return next();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxSize) {
      await drain(reader, size);
      return onError(c);
    }
    chunks.push(value);
  }
  c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks, size) });
  return next();
}

/** Reads the rest of a body into nothing, up to the bounds; past them the reader is let go unread. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bounded = new Promise<void>((resolve) => {
    // eslint-disable-next-line no-restricted-globals -- how long a client's unread body is drained: network time, below the service
    timer = setTimeout(resolve, DISCARD_MS);
  });
  const read = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.length;
      if (seen > DISCARD_BYTES) return;
    }
  })().catch(() => undefined); // the client went away: nothing left to drain
  await Promise.race([read, bounded]);
  clearTimeout(timer);
  reader.releaseLock();
}

/** Reads the rest of the request body into nothing, up to the bound; resolves when it ended or the bound was met. */
async function discardBody(c: Context): Promise<void> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded || incoming.destroyed) return;
  await new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', count).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DISCARD_BYTES) done();
    };
    // eslint-disable-next-line no-restricted-globals -- how long a client's unread body is drained: network time, below the service
    const timer = setTimeout(done, DISCARD_MS);
    incoming.on('data', count).once('end', done).once('close', done).once('error', done);
    incoming.resume();
  });
}
