// Fairness by cost: thirty visitors, each in a room of its own and each within its budget, keep their
// PALs reading 3,990-character echoes without a full stop, while a bystander in another room asks its PAL
// short questions. Figures: the bystander's reply before (quiet) and during, and the service's longest
// event-loop stall.
import { percentile, replyMs, startChaosService } from '../chaos.js';
import { sleep, type RoomClient } from '../live-fixtures.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

const VISITORS = 30;
const LONG_ECHO = Array.from({ length: 800 }, (_, i) => ['please', 'read', 'this', 'long', 'echo', 'aloud'][i % 6])
  .join(' ')
  .slice(0, 3_990);

export interface FairEchoesFigures extends ChaosFigures {
  visitors: number;
  /** Rooms that started speaking their echoes. */
  speaking: number;
  quiet: number[];
  busy: number[];
  longestStallMs: number;
}

export const fairEchoes: ChaosScenario<FairEchoesFigures> = {
  name: 'long echoes',
  async run() {
    const chaos = await startChaosService({ PALKIT_ROOM_POLL_MS: '500' });
    const echoers: RoomClient[] = [];
    let bystander: RoomClient | undefined;
    try {
      bystander = (await chaos.call()).client;
      const quiet: number[] = [];
      for (let i = 0; i < 12; i++) {
        quiet.push(await replyMs(bystander));
        await sleep(150);
      }
      for (let i = 0; i < VISITORS; i += 10)
        echoers.push(...(await Promise.all(Array.from({ length: Math.min(10, VISITORS - i) }, async () => (await chaos.call()).client))));
      // Each visitor sends a long echo every two seconds: 2,000 characters a second, a quarter of its text budget.
      let sending = true;
      let sent = 0;
      const echoing = (async () => {
        while (sending) {
          for (const client of echoers) client.say('conversation.echo', { text: LONG_ECHO });
          sent += echoers.length;
          await sleep(2_000);
        }
      })();
      await sleep(3_000); // every room is speaking
      const lagMax = async () =>
        Number(
          /^palkit_nodejs_eventloop_lag_max_seconds (\S+)/m.exec(await (await fetch(`${chaos.process.url}/metrics`)).text())?.[1] ?? NaN,
        ) * 1000;
      let longestStallMs = 0;
      const busy: number[] = [];
      for (let i = 0; i < 20; i++) {
        longestStallMs = Math.max(longestStallMs, await lagMax());
        busy.push(await replyMs(bystander, 30_000));
        await sleep(250);
      }
      sending = false;
      await echoing;
      chaos.assertAlive();
      const speaking = echoers.filter((c) => c.events('conversation.replica.started_speaking').length >= 2).length;
      const summary =
        `${VISITORS} rooms reading ${LONG_ECHO.length}-character echoes (${sent} sent, ${speaking} rooms speaking them): ` +
        `another room's reply quiet p50 ${percentile(quiet, 50).toFixed(0)} ms p95 ${percentile(quiet, 95).toFixed(0)} ms, ` +
        `during p50 ${percentile(busy, 50).toFixed(0)} ms p95 ${percentile(busy, 95).toFixed(0)} ms (max ${Math.max(...busy).toFixed(0)}); the service's longest event-loop stall ${longestStallMs.toFixed(0)} ms`;
      return { summary, visitors: VISITORS, speaking, quiet, busy, longestStallMs };
    } finally {
      for (const client of [bystander, ...echoers]) client?.close();
      await chaos.stop();
    }
  },
};
