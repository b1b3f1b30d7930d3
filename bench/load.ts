// A closed-loop HTTP load generator: `concurrency` callers each POST the next request as soon as the
// previous one answered, for `seconds` after a warm-up. It runs in a process of its own (like wrk),
// so the service under test does not share its event loop with the callers. Reports throughput and
// latency percentiles. BENCH_TRACE=1 prints every request slower than 1 s with when it was sent.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

export interface LoadOptions {
  concurrency: number;
  seconds: number;
  warmupSeconds?: number;
}

/** POSTs `body` (JSON) to `url` (or spread over several) from a separate process and resolves with what it measured. */
export function runLoad(url: string | string[], body: string, options: LoadOptions): Promise<LoadResult> {
  const client = fileURLToPath(new URL('./load-client.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', client, JSON.stringify({ url, body, ...options })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = output.trim().split('\n');
      if (code !== 0) return reject(new Error(`load client exited ${code}: ${output}`));
      for (const line of lines.slice(0, -1)) console.log(line); // traces
      resolve(JSON.parse(lines.at(-1)!) as LoadResult);
    });
  });
}

export function formatLoad(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${r.perSecond.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(7)} ms   p99 ${r.p99.toFixed(1).padStart(7)} ms   (${r.requests} requests; statuses ${JSON.stringify(r.statuses)})`;
}
