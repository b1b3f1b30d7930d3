// A loopback web site for document and crawl tests: fixed routes (body, type, status, headers) or a
// handler, and a log of every request path so tests can check what was (not) fetched.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for.js';

export interface SiteRoute {
  body?: string | Uint8Array;
  type?: string;
  status?: number;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface TestSite {
  url: string;
  origin: string;
  routes: Map<string, SiteRoute>;
  /** Paths (with query) in request order. */
  requests: string[];
  /** When each request arrived (ms), parallel to `requests`. */
  times: number[];
  /** JSON bodies of POST requests (callbacks), with their path. */
  posts: Array<{ path: string; body: any }>;
  close(): Promise<void>;
}

export async function startSite(
  routes: Record<string, SiteRoute> = {},
  fallback?: (path: string) => SiteRoute | undefined,
): Promise<TestSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const times: number[] = [];
  const posts: Array<{ path: string; body: any }> = [];
  const server = http.createServer(async (req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    times.push(Date.now());
    if (req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      try {
        posts.push({ path, body: JSON.parse(text) });
      } catch {
        posts.push({ path, body: text });
      }
    }
    const route = table.get(path) ?? fallback?.(path);
    const answer = () => {
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...(route.headers ?? {}) });
      res.end(route.body ?? '');
    };
    if (route?.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin + '/',
    origin,
    routes: table,
    requests,
    times,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function page(title: string, main: string, links: string[] = [], extras = ''): string {
  const nav = links.map((l) => `<a href="${l}">${l}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title><style>body{color:red}</style></head><body>
<header><nav>${nav}</nav><p>Site header menu text</p></header>
<main><h1>${title}</h1><p>${main}</p>${extras}</main>
<footer>Footer copyright text</footer></body></html>`;
}

/** Polls the API until the document leaves the running states. */
export async function waitForDocument(api: (m: string, p: string) => Promise<{ body: any }>, id: string, timeoutMs = 20_000): Promise<any> {
  let status: unknown;
  return waitFor(
    async () => {
      const { body } = await api('GET', `/v2/documents/${id}`);
      status = body?.status;
      return body?.status === 'ready' || body?.status === 'error' ? body : undefined;
    },
    { timeout: timeoutMs, interval: 40, what: () => `document ${id} to leave ${String(status)}` },
  );
}
