// The callers of bench/load.ts, in their own process: argv[2] is `{url, body, concurrency, seconds,
// warmupSeconds}`; the last line printed is the LoadResult as JSON. Given several URLs (instances of one
// service), the callers are spread over them evenly, as a load balancer would. Requests go out through
// node:http with kept-alive connections, one per caller (fetch took about three times the CPU per
// request, which on this machine is CPU the service under test does not get).
import { Agent, request } from 'node:http';
import type { LoadResult } from './load.js';

const {
  url,
  body,
  concurrency,
  seconds,
  warmupSeconds = 1,
} = JSON.parse(process.argv[2]!) as { url: string | string[]; body: string; concurrency: number; seconds: number; warmupSeconds?: number };
const urls = typeof url === 'string' ? [url] : url;
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const payload = Buffer.from(body);

/** POSTs the body; resolves with the answer's status once its body has been read. */
function post(target: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': payload.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
const latencies: number[] = [];
const statuses: Record<number, number> = {};
const t0 = performance.now();
let measuring = false;
let stopAt = Date.now() + warmupSeconds * 1000;

async function caller(_: unknown, index: number): Promise<void> {
  const target = new URL(urls[index % urls.length]!);
  while (Date.now() < stopAt) {
    const began = performance.now();
    const status = await post(target);
    const took = performance.now() - began;
    if (!measuring) continue;
    if (process.env.BENCH_TRACE && took > 1000) console.log('slow', Math.round(began - t0), 'ms into the run took', Math.round(took), 'ms');
    latencies.push(took);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: concurrency }, caller)); // warm-up
measuring = true;
const began = performance.now();
stopAt = Date.now() + seconds * 1000;
await Promise.all(Array.from({ length: concurrency }, caller));
const elapsed = (performance.now() - began) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
const result: LoadResult = { requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), statuses };
console.log(JSON.stringify(result));
