// Crawl throughput (pages per second over a 500-page loopback site, politeness delay 0) and ingestion
// time per MB (generated HTML and plain text), on the embedded database with the local embedder, each
// with the longest stall of the service's event loop meanwhile (what a live room on the instance would
// feel: its audio is sent every 20 ms).
// Runs under bench/run.ts (`npm run bench`) or alone: `tsx bench/crawl.bench.ts`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/server/platform/config.js';
import { createService, type Service } from '../src/server/app/service.js';

const KEY = 'bench-key';
const PAGES = 500;
const words =
  'coffee grinder espresso milk foam roast bean brew filter kettle water temperature pressure crema barista cup saucer tamp dose ratio'.split(
    ' ',
  );

function sentence(seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < 14; i++) out.push(words[(seed * 7 + i * 13) % words.length]!);
  return out.join(' ') + '.';
}

/** Page n links to its ten children 10n+1 … 10n+10 (a tree: depth 3 covers more than 500 pages). */
function sitePage(n: number): string {
  const links = Array.from({ length: 10 }, (_, i) => 10 * n + i + 1)
    .filter((c) => c < 2000)
    .map((c) => `<a href="/p/${c}">Page ${c}</a>`);
  const body = Array.from({ length: 6 }, (_, i) => `<p>${sentence(n * 6 + i)}</p>`).join('');
  return `<!doctype html><html><head><title>Page ${n}</title></head><body><nav>${links.join(' ')}</nav><main><h1>Page ${n}</h1>${body}</main></body></html>`;
}

async function startOrigin(files: Map<string, { type: string; body: string }>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const file = files.get(path);
    if (file) return void res.writeHead(200, { 'content-type': file.type }).end(file.body);
    const n = path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? NaN);
    if (Number.isInteger(n)) return void res.writeHead(200, { 'content-type': 'text/html' }).end(sitePage(n));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function waitReady(service: Service, base: string, id: string): Promise<any> {
  for (;;) {
    const doc = await (await fetch(`${base}/v2/documents/${id}`, { headers: { 'x-api-key': KEY } })).json();
    if (doc.status === 'ready' || doc.status === 'error') return doc;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function create(base: string, body: unknown): Promise<string> {
  const r = await fetch(`${base}/v2/documents`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await r.json()) as { document_id: string }).document_id;
}

export default async function run(): Promise<void> {
  const text = Array.from({ length: 40_000 }, (_, i) => sentence(i) + (i % 8 === 7 ? '\n\n' : ' ')).join('');
  const html = `<!doctype html><html><body><nav>menu</nav><main>${text
    .split('\n\n')
    .map((p) => `<p>${p}</p>`)
    .join('')}</main></body></html>`;
  const origin = await startOrigin(
    new Map([
      ['/big.txt', { type: 'text/plain', body: text }],
      ['/big.html', { type: 'text/html', body: html }],
    ]),
  );
  const config = loadConfig(
    {
      PALKIT_DATA: 'memory',
      PALKIT_API_KEYS: `${KEY}:1`,
      PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8',
      PALKIT_LOG: 'error',
      PALKIT_CRAWL_DELAY_MS: '0',
    },
    0,
  );
  const service = await createService(config);
  const { url: base } = await service.listen(0, '127.0.0.1');
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  const longestStall = () => {
    const ms = stalls.max / 1e6;
    stalls.reset();
    return `longest event-loop stall ${ms.toFixed(0)} ms`;
  };
  stalls.enable();
  try {
    stalls.reset();
    let started = Date.now();
    const crawlId = await create(base, { document_url: `${origin.url}/`, crawl: { depth: 3, max_pages: PAGES } });
    const crawled = await waitReady(service, base, crawlId);
    const crawlSeconds = (Date.now() - started) / 1000;
    if (crawled.status !== 'ready') throw new Error(`crawl failed: ${crawled.error_message}`);
    const pages = crawled.crawled_urls.length as number;
    console.log(
      `crawl: ${pages} pages in ${crawlSeconds.toFixed(2)} s → ${(pages / crawlSeconds).toFixed(1)} pages/s (fetch, extract, chunk, embed, store; delay 0); ${longestStall()}`,
    );

    for (const [label, path, bytes] of [
      ['text', '/big.txt', Buffer.byteLength(text)],
      ['html', '/big.html', Buffer.byteLength(html)],
    ] as const) {
      stalls.reset();
      started = Date.now();
      const doc = await waitReady(service, base, await create(base, { document_url: `${origin.url}${path}` }));
      const seconds = (Date.now() - started) / 1000;
      if (doc.status !== 'ready') throw new Error(`${label} ingestion failed: ${doc.error_message}`);
      const mb = bytes / (1024 * 1024);
      console.log(`ingest ${label}: ${mb.toFixed(2)} MB in ${seconds.toFixed(2)} s → ${(seconds / mb).toFixed(2)} s/MB; ${longestStall()}`);
    }
  } finally {
    stalls.disable();
    await service.close();
    await origin.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
