// The request body limit. Hono's bodyLimit reads `c.req.raw.body` first, which makes the Node adapter
// build a web ReadableStream (and a full Request) for every request, so that the body is then read
// through it instead of straight from the socket: a large share of a small request's cost. When
// Content-Length tells the size, as it does for every body but a chunked one, the size is checked
// from it (as Hono's bodyLimit does then too) and the body is left alone.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export function limitBodySize(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) return parseInt(length || '0', 10) > maxSize ? onError(c) : next();
    return counted(c, next); // a chunked body: counted as it is read
  };
}
