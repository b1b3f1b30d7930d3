// A closed-loop HTTP load generator: `concurrency` callers each send the next request as soon as the
// previous one answered, for `seconds` after a warm-up. Reports throughput and latency percentiles.
// BENCH_TRACE=1 prints every request slower than 1 s with when it was sent.

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

export async function runLoad(send: () => Promise<Response>, { concurrency, seconds, warmupSeconds = 1 }: { concurrency: number; seconds: number; warmupSeconds?: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  const t0 = performance.now();
  const statuses: Record<number, number> = {};
  let measuring = false;
  let stopAt = Date.now() + warmupSeconds * 1000;
  const worker = async () => {
    while (Date.now() < stopAt) {
      const began = performance.now();
      const response = await send();
      await response.arrayBuffer();
      if (measuring) {
        if (process.env.BENCH_TRACE && performance.now() - began > 1000) console.log('slow', Math.round(began - t0), 'ms into the run took', Math.round(performance.now() - began), 'ms');
        latencies.push(performance.now() - began);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker)); // warm-up
  measuring = true;
  const began = performance.now();
  stopAt = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), statuses };
}

export function formatLoad(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${r.perSecond.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(7)} ms   p99 ${r.p99.toFixed(1).padStart(7)} ms   (${r.requests} requests; statuses ${JSON.stringify(r.statuses)})`;
}
