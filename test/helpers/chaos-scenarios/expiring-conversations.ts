// 10,000 conversations nobody joined expire together: the room poll settles them in batches that yield,
// while /healthz is asked every 50 ms and a live room's visitor keeps asking its PAL. Figures: /healthz
// quiet and during the sweep (and its failures), the live room's replies quiet and during.
import { percentile, replyMs, startChaosService } from '../chaos.js';
import { sleep } from '../live-fixtures.js';
import { fmtTimes, probeHealth, quietHealth } from './healthz-probe.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

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
      const chaos = await startChaosService({ PALKIT_ROOM_POLL_MS: '1000' });
      const { client } = await chaos.call();
      try {
        const quietReplies = [await replyMs(client), await replyMs(client), await replyMs(client)];
        const quiet = await quietHealth(chaos.process.url);

        // Each conversation's absent timeout is set so that all of them expire in the same second, whatever
        // the time creating them takes (30 to 500 a second on a shared 2-core machine): 200 created (and
        // ended) warm the service up, a next 200 tell how long the rest will take on this machine; they all
        // expire 30 % longer again and 10 s after. (Timed on the first, cold 200, the estimate was half as
        // long again as the creating took: the test sat idle 28 s of its 97 in CI, where all took 21 s.)
        let expireAt = Date.now() + 3_600_000;
        const ids: string[] = [];
        let next = 0;
        let retried = 0;
        const create = async () => {
          const properties = { participant_absent_timeout: Math.max(1, Math.ceil((expireAt - Date.now()) / 1000)) };
          try {
            return await chaos.conversation(properties);
          } catch {
            retried++; // a keyed create that failed in transit, counted and asked again
            return await chaos.conversation(properties);
          }
        };
        const createUpTo = (upTo: number) =>
          Promise.all(
            Array.from({ length: 10 }, async () => {
              while (next < upTo) {
                next++;
                ids.push((await create()).conversationId);
              }
            }),
          );
        const endThisBatch = async () => {
          for (const c of ids) await chaos.api('POST', `/v2/conversations/${c}/end`);
          ids.length = 0;
          next = 0;
        };
        const timed = Math.min(200, count);
        await createUpTo(timed);
        await endThisBatch();
        const createdStarted = performance.now();
        await createUpTo(timed);
        const perConversationMs = (performance.now() - createdStarted) / timed;
        expireAt = Date.now() + Math.round(perConversationMs * Math.max(0, count - timed) * 1.3) + 10_000;
        await endThisBatch();
        await createUpTo(count);
        const createSeconds = (performance.now() - createdStarted) / 1000;
        const createdInTime = Date.now() < expireAt;
        const idleSeconds = Math.max(0, expireAt - Date.now()) / 1000;

        // Settled in the order of their ids: the greatest is the last.
        const last = [...ids].sort().at(-1)!;
        const during = probeHealth(chaos.process.url);
        const replies: number[] = [];
        while (Date.now() < expireAt) await sleep(200);
        const sweepStarted = performance.now();
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
          `${count} created in ${createSeconds.toFixed(1)} s (${retried} asked again), ${idleSeconds.toFixed(1)} s to their expiry, settled in ${sweepSeconds.toFixed(1)} s${settled ? '' : ' (NOT all settled)'}; ` +
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
