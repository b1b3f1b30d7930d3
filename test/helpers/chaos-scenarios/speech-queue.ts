// One tenant's speech items must not slow every tenant's calls: owner 2 queues 40 speech items of 5,000
// characters (the per-owner cap raised so that all of them queue) while owner 1's visitor asks its PAL
// short questions, until at least three items have finished (their audio, megabytes each, stored while
// measured) or two minutes have passed. Figures: owner 1's first audio quiet and while the items are
// generated and stored, and the service's longest event-loop stall in each phase (its /metrics).
import { percentile, replyMs, startChaosService } from '../chaos.js';
import { sleep, type RoomClient } from '../live-fixtures.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

const ITEMS = 40;
/** Items that must finish while measured: each one's audio is stored then. */
const FINISHED = 3;
const OWNER_2 = 'chaos-key-owner-2';
const SCRIPT =
  Array.from({ length: 900 }, (_, i) => ['the', 'quarterly', 'report', 'reads', 'aloud', 'slowly'][i % 6])
    .join(' ')
    .slice(0, 4_990) + '.';

export interface SpeechQueueFigures extends ChaosFigures {
  /** Status of each queued item when measured. */
  statuses: string[];
  /** Items that finished while owner 1's replies were measured. */
  finished: number;
  quiet: number[];
  busy: number[];
  /** The service's longest event-loop stall, quiet and while the items were generated and stored (ms). */
  quietStallMs: number;
  busyStallMs: number;
}

export function speechQueue(voice: 'native' | 'wasm', options: { nodeArgs?: string[] } = {}): ChaosScenario<SpeechQueueFigures> {
  return {
    name: `another owner's speech items (${voice} voice)`,
    async run() {
      const chaos = await startChaosService(
        { PALKIT_API_KEYS: `chaos-key:1,${OWNER_2}:2`, PALKIT_GENERATING_PER_OWNER: '50', PALKIT_LOCAL_VOICE: voice },
        options,
      );
      let visitor: RoomClient | undefined;
      const speech = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(chaos.process.url + path, {
          method,
          headers: { 'x-api-key': OWNER_2, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: r.status, body: (await r.json()) as any };
      };
      try {
        const v = (visitor = (await chaos.call()).client);
        const lagMax = async () => {
          const metrics = await fetch(`${chaos.process.url}/metrics`).then(
            (r) => r.text(),
            (error: unknown) => {
              chaos.assertAlive(); // says so when the service is gone
              throw error;
            },
          );
          return Number(/^palkit_nodejs_eventloop_lag_max_seconds (\S+)/m.exec(metrics)?.[1] ?? NaN) * 1000;
        };
        const quiet: number[] = [];
        let quietStallMs = 0;
        await lagMax(); // the maximum is since the last scrape
        for (let i = 0; i < 12; i++) {
          quiet.push(await replyMs(v));
          await sleep(200);
          quietStallMs = Math.max(quietStallMs, await lagMax());
        }
        const ids: string[] = [];
        for (let i = 0; i < ITEMS; i++) {
          const created = await speech('POST', '/v2/speech', { script: SCRIPT });
          if (created.status !== 200) throw new Error(`queueing a speech item: ${created.status} ${JSON.stringify(created.body)}`);
          ids.push(created.body.speech_id);
        }
        await sleep(1_000); // generation is under way
        await lagMax();
        const readyNow = async () =>
          ((await speech('GET', '/v2/speech?limit=50')).body.data as Array<{ status: string }>).filter((s) => s.status === 'ready').length;
        const readyBefore = await readyNow();
        const busy: number[] = [];
        let busyStallMs = 0;
        let finished = 0;
        const until = Date.now() + 120_000;
        while (busy.length < 20 || (finished < FINISHED && Date.now() < until)) {
          busy.push(await replyMs(v, 30_000));
          await sleep(250);
          busyStallMs = Math.max(busyStallMs, await lagMax());
          if (busy.length % 4 === 0) finished = (await readyNow()) - readyBefore;
        }
        finished = (await readyNow()) - readyBefore;
        const statuses = await Promise.all(ids.map(async (id) => (await speech('GET', `/v2/speech/${id}`)).body.status as string));
        chaos.assertAlive();
        const summary =
          `${voice}: ${ITEMS} speech items of ${SCRIPT.length} characters queued (${finished} finished while measured; ${statuses.filter((s) => s === 'ready').length} ready, ${statuses.filter((s) => s === 'generating').length} generating at the end); ` +
          `owner 1's first audio quiet p50 ${percentile(quiet, 50).toFixed(0)} ms p95 ${percentile(quiet, 95).toFixed(0)} ms, ` +
          `during p50 ${percentile(busy, 50).toFixed(0)} ms p95 ${percentile(busy, 95).toFixed(0)} ms max ${Math.max(...busy).toFixed(0)} ms (${busy.length} replies); ` +
          `longest event-loop stall quiet ${quietStallMs.toFixed(0)} ms, during ${busyStallMs.toFixed(0)} ms`;
        return { summary, statuses, finished, quiet, busy, quietStallMs, busyStallMs };
      } finally {
        visitor?.close();
        await chaos.stop();
      }
    },
  };
}
