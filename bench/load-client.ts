// The callers of bench/load.ts, in their own process: argv[2] is `{url, body, concurrency, seconds,
// warmupSeconds}`; the last line printed is the LoadResult as JSON. Given several URLs (instances of one
// service), the callers are spread over them evenly, as a load balancer would.
import type { LoadResult } from './load.js';

const { url, body, concurrency, seconds, warmupSeconds = 1 } = JSON.parse(process.argv[2]!) as { url: string | string[]; body: string; concurrency: number; seconds: number; warmupSeconds?: number };
const urls = typeof url === 'string' ? [url] : url;
const latencies: number[] = [];
const statuses: Record<number, number> = {};
const t0 = performance.now();
let measuring = false;
let stopAt = Date.now() + warmupSeconds * 1000;

async function caller(_: unknown, index: number): Promise<void> {
  const target = urls[index % urls.length]!;
  while (Date.now() < stopAt) {
    const began = performance.now();
    const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    const took = performance.now() - began;
    if (!measuring) continue;
    if (process.env.BENCH_TRACE && took > 1000) console.log('slow', Math.round(began - t0), 'ms into the run took', Math.round(took), 'ms');
    latencies.push(took);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
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
