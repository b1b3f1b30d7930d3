// Loopback HTTP helpers for tests: a file server (training videos and bad files) and a callback receiver.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for.js';

export interface Loopback {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export interface FileRoute {
  status?: number;
  contentType?: string;
  body: Uint8Array | string;
  /** Wait this long before answering (to keep a training in flight). */
  delayMs?: number;
}

/** Serves fixed responses by path; `hits` counts requests per path. */
export async function startFileServer(routes: Record<string, FileRoute>): Promise<Loopback & { hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    const answer = () => {
      if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(route.status ?? 200, { 'content-type': route.contentType ?? 'application/octet-stream' }).end(route.body);
    };
    if (route?.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  return { url: await listen(server), hits, close: closer(server) };
}

export interface ReceivedCallback {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** Records every POST it receives and answers 200. */
export async function startCallbackReceiver(): Promise<
  Loopback & { received: ReceivedCallback[]; waitFor(count: number, timeoutMs?: number): Promise<ReceivedCallback[]> }
> {
  const received: ReceivedCallback[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* keep raw */
      }
      received.push({ path: req.url ?? '/', headers: req.headers, raw, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return {
    url: await listen(server),
    received,
    close: closer(server),
    async waitFor(count, timeoutMs = 20_000) {
      await waitUntil(() => received.length >= count, timeoutMs, `${count} callbacks (got ${received.length})`);
      return received;
    },
  };
}

/** test/helpers/wait-for.ts's waitFor for a yes/no check, in this file's older argument order. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  await waitFor(check, { timeout: timeoutMs, interval: 50, what });
}
