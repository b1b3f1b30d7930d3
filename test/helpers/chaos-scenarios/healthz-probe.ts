// /healthz asked over and over from one address, as a load balancer would: the front door's scenarios
// measure it quiet and under attack.
import { request } from 'node:http';
import { percentile } from '../chaos.js';
import { sleep } from '../live-fixtures.js';

/** /healthz's time in ms, or null when it failed (no answer within 5 s, an error, not 200). */
export function healthz(url: string, localAddress = '127.0.0.1'): Promise<number | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${url}/healthz`, { localAddress, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

export interface HealthProbe {
  answers: Array<{ at: number; ms: number }>;
  failedAt: number[];
  readonly times: number[];
  readonly failures: number;
  stop(): Promise<void>;
}

/** Asks /healthz every `everyMs` until stopped; its times (and when each was asked) and failures. */
export function probeHealth(url: string, everyMs = 50, localAddress = '127.0.0.1'): HealthProbe {
  const answers: Array<{ at: number; ms: number }> = [];
  const failedAt: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const at = Date.now();
      const ms = await healthz(url, localAddress);
      if (ms === null) failedAt.push(at);
      else answers.push({ at, ms });
      await sleep(everyMs);
    }
  })();
  return {
    answers,
    failedAt,
    get times() {
      return answers.map((a) => a.ms);
    },
    get failures() {
      return failedAt.length;
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Quiet /healthz for `ms`: the baseline of the same run. */
export async function quietHealth(url: string, ms = 2000): Promise<number[]> {
  const quiet = probeHealth(url);
  await sleep(ms);
  await quiet.stop();
  return quiet.times;
}

export const fmtTimes = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (${values.length} answers)`;
