// Frames that carry no audio (a 9-byte kind-2 frame, an 8-byte kind-1 frame, reserved bytes set, no
// samples) from visitors that never read: each costs a frame and 20 ms of audio, is answered once a
// while, and a flood is closed with 4429. Figures: the service's memory growth, and another room's reply
// quiet (before and after) and during the floods.
import { flood, percentile, replyMs, startChaosService, type ChaosService, type FloodResult } from '../chaos.js';
import { sleep, type RoomClient } from '../live-fixtures.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

const FLOOD_MS = 12_000;
const FLOODERS = 1;
const MALFORMED = 'palkit_room_input_dropped_total\\{kind="malformed"\\}';

export interface ZeroCostFramesFigures extends ChaosFigures {
  floods: FloodResult[];
  /** Malformed frames the budgets counted as dropped. */
  dropped: number;
  growthMb: number;
  quiet: number[];
  during: number[];
}

async function metric(chaos: ChaosService, name: string): Promise<number> {
  const text = await (await fetch(`${chaos.process.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

export const zeroCostFrames: ChaosScenario<ZeroCostFramesFigures> = {
  name: 'zero-cost frames',
  async run() {
    // Baseline WebAssembly code only: V8 otherwise re-compiles the embedded PostgreSQL's hot functions with
    // its optimising tier in the background for minutes after start, and that code (+70-170 MB under load
    // here, +51 MB in a CI run) landed in the flood's memory growth whenever the machine was busy.
    const chaos = await startChaosService({}, { nodeArgs: ['--liftoff-only'] });
    let bystander: RoomClient | undefined;
    try {
      const by = (bystander = (await chaos.call()).client);
      const quietReplies = async () => {
        const replies: number[] = [];
        for (let i = 0; i < 10; i++) {
          replies.push(await replyMs(by));
          await sleep(100);
        }
        return replies;
      };
      const quietBefore = await quietReplies();
      const droppedBefore = await metric(chaos, MALFORMED);
      const rssBefore = chaos.rssMb();
      let rssPeak = rssBefore;
      const floods: FloodResult[] = [];
      const ends = Date.now() + FLOOD_MS;
      // Flooders one after another (each its own process) in each lane, each on a conversation of its own, for the whole run.
      const lanes = Array.from({ length: FLOODERS }, async () => {
        while (Date.now() < ends) floods.push(await flood(await chaos.conversation(), 'zero-cost', 500_000));
      });
      let done = false;
      const flooding = Promise.all(lanes).finally(() => (done = true));
      const during: number[] = [];
      while (!done || during.length < 10) {
        during.push(await replyMs(by));
        rssPeak = Math.max(rssPeak, chaos.rssMb());
        await sleep(250);
      }
      await flooding;
      chaos.assertAlive();
      // Quiet again after: the machine's own load may have changed during the run (it is shared).
      const quiet = quietBefore.concat(await quietReplies());
      const growthMb = rssPeak - rssBefore;
      const sent = floods.reduce((n, r) => n + r.sent, 0);
      const dropped = (await metric(chaos, MALFORMED)) - droppedBefore;
      const summary =
        `${floods.length} floods, ${sent} frames (${dropped} dropped as malformed), first close codes ${[...new Set(floods.map((r) => r.closeCodes[0]))].join('/')}, ` +
        `rejoins refused with ${[...new Set(floods.map((r) => r.closeCodes.at(-1)))].join('/')}; another room's reply quiet p50 ${percentile(quiet, 50).toFixed(0)} ms p95 ${percentile(quiet, 95).toFixed(0)} ms, ` +
        `during p50 ${percentile(during, 50).toFixed(0)} ms p95 ${percentile(during, 95).toFixed(0)} ms (max ${Math.max(...during).toFixed(0)}) over ${during.length} replies; ` +
        `memory ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB (+${growthMb.toFixed(0)})`;
      return { summary, floods, dropped, growthMb, quiet, during };
    } finally {
      bystander?.close();
      await chaos.stop();
    }
  },
};
