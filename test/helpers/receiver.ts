// A loopback HTTP server that records what is POSTed to it (callbacks), with a switchable answer.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status to answer with (default 200); a function may vary it per request. */
  respond: number | ((r: Received, index: number) => number);
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const state: Receiver = {
    url: '',
    received,
    respond: 200,
    async waitFor(count, timeoutMs = 15_000) {
      await waitFor(() => received.length >= count, { timeout: timeoutMs, what: () => `${count} callbacks, got ${received.length}` });
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* keep raw */
      }
      const entry: Received = { path: req.url ?? '/', headers: req.headers, raw, body };
      const status = typeof state.respond === 'function' ? state.respond(entry, received.length) : state.respond;
      if (status >= 200 && status < 300) received.push(entry);
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
