// 10,000 conversations nobody joined expire together, at one instant of the service's clock: the room poll
// settles them in batches that yield, while /healthz is asked every 50 ms and a live room's visitor keeps
// asking its PAL. Figures: /healthz quiet and during the sweep (and its failures), the live room's replies
// quiet and during.
import { fileURLToPath } from 'node:url';
import { percentile, replyMs, startChaosService } from '../chaos.js';
import { sleep } from '../live-fixtures.js';
import { waitFor } from '../wait-for.js';
import { fmtTimes, probeHealth, quietHealth } from './healthz-probe.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

const CLOCK_JUMP = fileURLToPath(new URL('../clock-jump-preload.ts', import.meta.url));
/** Each conversation's participant_absent_timeout: longer than creating 10,000 takes even at load 20 (220 s). */
const ABSENT_SECONDS = 900;

export interface ExpiringFigures extends ChaosFigures {
  count: number;
  /** Whether the last conversation was settled within 10 minutes of the expiry. */
  settled: boolean;
  /** Whether all of them were created before they expired. */
  createdInTime: boolean;
  quietHealth: number[];
  sweepHealth: number[];
  sweepFailures: number;
  quietReplies: number[];
  replies: number[];
}

export function expiringConversations(count = 10_000): ChaosScenario<ExpiringFigures> {
  return {
    name: `${count.toLocaleString('en')} conversations expiring together`,
    async run() {
      const chaos = await startChaosService(
        { PALKIT_ROOM_POLL_MS: '1000', PALKIT_TEST_CLOCK_JUMP_MS: String(ABSENT_SECONDS * 1000 + 1000) },
        { nodeArgs: ['--import', CLOCK_JUMP] },
      );
      const { client } = await chaos.call();
      try {
        const quietReplies = [await replyMs(client), await replyMs(client), await replyMs(client)];
        const quiet = await quietHealth(chaos.process.url);

        // All get the same absent timeout, longer than creating them can take; once all are created the
        // service's clock jumps past it (clock-jump-preload.ts), so all of them are due at one instant and the
        // test never waits for it. (Before, it estimated how long the creating would take and waited out a
        // margin: 33 s idle of 83 at load 1, and a flake when the margin was cut.)
        const ids: string[] = [];
        let next = 0;
        let retried = 0;
        const properties = { participant_absent_timeout: ABSENT_SECONDS };
        const create = async () => {
          try {
            return await chaos.conversation(properties);
          } catch {
            retried++; // a keyed create that failed in transit, counted and asked again
            return await chaos.conversation(properties);
          }
        };
        const createdStarted = performance.now();
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            while (next < count) {
              next++;
              ids.push((await create()).conversationId);
            }
          }),
        );
        const createSeconds = (performance.now() - createdStarted) / 1000;
        // The first was created after createdStarted: none expired before the last was created.
        const createdInTime = createSeconds < ABSENT_SECONDS;

        // Settled in the order of their ids: the greatest is the last.
        const last = [...ids].sort().at(-1)!;
        const during = probeHealth(chaos.process.url);
        const replies: number[] = [];
        const expireAt = Date.now();
        const sweepStarted = performance.now();
        chaos.process.child.kill('SIGUSR2');
        await waitFor(() => chaos.process.output().includes('clock-jumped'), { what: "the service's clock to jump" });
        const deadline = Date.now() + 600_000;
        let settled = false;
        while (Date.now() < deadline) {
          chaos.assertAlive();
          if ((await chaos.api('GET', `/v2/conversations/${last}`)).body?.status === 'ended') {
            settled = true;
            break;
          }
          replies.push(await replyMs(client, 30_000));
          await sleep(500);
        }
        const sweepSeconds = (performance.now() - sweepStarted) / 1000;
        await during.stop();
        const sweepHealth = during.answers.filter((a) => a.at >= expireAt).map((a) => a.ms);
        const sweepFailures = during.failedAt.filter((at) => at >= expireAt).length;
        const summary =
          `${count} created in ${createSeconds.toFixed(1)} s (${retried} asked again), the service's clock moved ${ABSENT_SECONDS} s on, settled in ${sweepSeconds.toFixed(1)} s${settled ? '' : ' (NOT all settled)'}; ` +
          `/healthz quiet ${fmtTimes(quiet)}, during the sweep ${fmtTimes(sweepHealth)}, ${sweepFailures} failed; ` +
          `live room replies quiet ${quietReplies.map((r) => r.toFixed(0)).join(', ')} ms, during p95 ${percentile(replies, 95).toFixed(0)} ms`;
        return { summary, count, settled, createdInTime, quietHealth: quiet, sweepHealth, sweepFailures, quietReplies, replies };
      } finally {
        client.close();
        await chaos.stop();
      }
    },
  };
}
