// A fault stays where it happens, measured: the service runs as its own process; a bystander asks its echo
// PAL about four times a second, first in a quiet service (the baseline), then while one visitor floods
// another room from a process of its own (microphone far faster than real time into a recorded call, rates
// switching on every frame, chat turns). Prints the bystander's reply p50/p95 per phase against the
// baseline of the same run, the service's memory growth and what its budgets dropped.
import { flood, percentile, replyMs, startChaosService, type FloodKind } from '../test/helpers/chaos.js';
import { sleep } from '../test/helpers/live-fixtures.js';

const FRAMES = Number(process.env.BENCH_CHAOS_FRAMES ?? 60_000);
const QUIET_REPLIES = 30;

export default async function chaos(): Promise<void> {
  const service = await startChaosService();
  try {
    const { client: bystander } = await service.call();
    const ask = async (until: (replies: number[]) => boolean): Promise<number[]> => {
      const replies: number[] = [];
      while (!until(replies)) {
        replies.push(await replyMs(bystander));
        await sleep(250);
      }
      return replies;
    };
    const quiet = await ask((replies) => replies.length >= QUIET_REPLIES);
    const baseline = percentile(quiet, 95);
    console.log(`quiet: another room's reply p50 ${percentile(quiet, 50).toFixed(0)} ms, p95 ${baseline.toFixed(0)} ms (${quiet.length} replies)`);
    for (const [kind, properties] of [['audio', { enable_recording: true }], ['rates', {}], ['chat', {}]] as Array<[FloodKind, Record<string, unknown>]>) {
      const conv = await service.conversation(properties);
      const rss = service.rssMb();
      let done = false;
      const flooding = flood(conv, kind, FRAMES).finally(() => (done = true));
      const replies = await ask((so) => done && so.length >= 5);
      const { sent, sessions } = await flooding;
      service.assertAlive();
      const p95 = percentile(replies, 95);
      console.log(
        `chaos: ${kind} flood (${sent} frames over ${sessions} connections): another room's reply p50 ${percentile(replies, 50).toFixed(0)} ms, ` +
          `p95 ${p95.toFixed(0)} ms vs quiet p95 ${baseline.toFixed(0)} ms (${(p95 / Math.max(1, baseline)).toFixed(1)}×, ${replies.length} replies); memory +${(service.rssMb() - rss).toFixed(0)} MB`,
      );
    }
    const metrics = await (await fetch(`${service.process.url}/metrics`)).text();
    console.log(metrics.split('\n').filter((l) => /^palkit_room_(input_dropped|sockets_closed)/.test(l)).join('\n'));
    bystander.close();
  } finally {
    await service.stop();
  }
}
