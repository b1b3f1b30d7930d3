// A fault stays where it happens: one visitor floods another room from a process of its own (microphone
// far faster than real time into a recorded call, rates switching on every frame, chat turns) while a
// bystander asks its echo PAL about four times a second. Figures per flood: the bystander's reply against
// the quiet baseline of the same run, the service's memory growth, and what its budgets dropped.
// (The tests of these floods, with their bars, are chaos-floods.test.ts and chaos-frames.test.ts.)
import { flood, percentile, replyMs, startChaosService, type FloodKind } from '../chaos.js';
import { sleep, type RoomClient } from '../live-fixtures.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

const FRAMES = Number(process.env.BENCH_CHAOS_FRAMES ?? 60_000);
const QUIET_REPLIES = 30;

export const floods: ChaosScenario = {
  name: 'floods into another room',
  async run(): Promise<ChaosFigures> {
    const service = await startChaosService();
    let bystander: RoomClient | undefined;
    try {
      const by = (bystander = (await service.call()).client);
      const ask = async (until: (replies: number[]) => boolean): Promise<number[]> => {
        const replies: number[] = [];
        while (!until(replies)) {
          replies.push(await replyMs(by));
          await sleep(250);
        }
        return replies;
      };
      const quiet = await ask((replies) => replies.length >= QUIET_REPLIES);
      const baseline = percentile(quiet, 95);
      const lines = [
        `quiet: another room's reply p50 ${percentile(quiet, 50).toFixed(0)} ms, p95 ${baseline.toFixed(0)} ms (${quiet.length} replies)`,
      ];
      for (const [kind, properties] of [
        ['audio', { enable_recording: true }],
        ['rates', {}],
        ['chat', {}],
      ] as Array<[FloodKind, Record<string, unknown>]>) {
        const conv = await service.conversation(properties);
        const rss = service.rssMb();
        let done = false;
        const flooding = flood(conv, kind, FRAMES).finally(() => (done = true));
        const replies = await ask((so) => done && so.length >= 5);
        const { sent, sessions } = await flooding;
        service.assertAlive();
        const p95 = percentile(replies, 95);
        lines.push(
          `${kind} flood (${sent} frames over ${sessions} connections): another room's reply p50 ${percentile(replies, 50).toFixed(0)} ms, ` +
            `p95 ${p95.toFixed(0)} ms vs quiet p95 ${baseline.toFixed(0)} ms (${(p95 / Math.max(1, baseline)).toFixed(1)}×, ${replies.length} replies); memory +${(service.rssMb() - rss).toFixed(0)} MB`,
        );
      }
      const metrics = await (await fetch(`${service.process.url}/metrics`)).text();
      lines.push(...metrics.split('\n').filter((l) => /^palkit_room_(input_dropped|sockets_closed)/.test(l)));
      return { summary: lines.join('\n  ') };
    } finally {
      bystander?.close();
      await service.stop();
    }
  },
};
