// The request body limit. Hono's bodyLimit reads `c.req.raw.body` first, which makes the Node adapter
// build a web ReadableStream (and a full Request) for every request, so that the body is then read
// through it instead of straight from the socket: a large share of a small request's cost. When
// Content-Length tells the size, as it does for every body but a chunked one, the size is checked
// from it (as Hono's bodyLimit does then too) and the body is left alone.
//
// An oversized body is read and thrown away (up to DISCARD_BYTES, for at most DISCARD_MS) before the
// 413 is sent: a client still uploading when the answer comes and the connection closes sees a reset
// (EPIPE) instead of the 413. Past the bound the answer is sent anyway and the connection closed.
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 15_000;

export function limitBodySize(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const refuse = async (c: Context) => {
    await discardBody(c);
    return onError(c);
  };
  const counted = bodyLimit({ maxSize, onError: refuse });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) return parseInt(length || '0', 10) > maxSize ? refuse(c) : next();
    return counted(c, next); // a chunked body: counted as it is read
  };
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
