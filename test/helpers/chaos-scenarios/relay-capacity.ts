// The relay carries what budgets allow: thirty visitors whose rooms instance A holds are connected to
// instance B, each speaking 16 kHz microphone audio in real time (20 ms frames), so that everything they
// say crosses the instance channel (LISTEN/NOTIFY on the shared PostgreSQL). Figures: payloads shed on
// either instance, frames over budget, and a relayed bystander's reply quiet and during.
// Needs PostgreSQL (PALKIT_TEST_DATABASE_URL): PGlite's database belongs to one process.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { percentile, replyMs, startChaosService, type ChaosService } from '../chaos.js';
import { RoomClient, sleep } from '../live-fixtures.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

const VISITORS = 30;
const SECONDS = 15;
const RATE = 16_000;

export interface RelayCapacityFigures extends ChaosFigures {
  sent: number;
  /** Payloads shed by the relay, on both instances. */
  shed: number;
  /** Frames B's budgets dropped. */
  overBudget: number;
  quiet: number[];
  busy: number[];
}

/** One 20 ms microphone frame: kind 2, the rate, then 16-bit samples (a quiet tone). */
function microphoneFrame(i: number): Buffer {
  const samples = RATE / 50;
  const bytes = Buffer.alloc(8 + samples * 2);
  bytes.writeUInt8(2, 0);
  bytes.writeUInt32LE(RATE, 4);
  for (let s = 0; s < samples; s++) bytes.writeInt16LE(Math.round(3000 * Math.sin((i * samples + s) / 5)), 8 + s * 2);
  return bytes;
}

async function metric(s: ChaosService, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${s.process.url}/metrics`)).text();
  return Number(new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
}
const shedOn = async (s: ChaosService) =>
  (await metric(s, 'palkit_relay_shed_total', '{kind="audio"}')) + (await metric(s, 'palkit_relay_shed_total', '{kind="message"}'));
const droppedOn = (s: ChaosService) => metric(s, 'palkit_room_input_dropped_total', '{kind="audio"}');

export const relayCapacity: ChaosScenario<RelayCapacityFigures> = {
  name: 'relayed visitors at 16 kHz',
  unavailable: () => (process.env.PALKIT_TEST_DATABASE_URL ? null : 'needs PostgreSQL: set PALKIT_TEST_DATABASE_URL'),
  async run() {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const base = new URL(process.env.PALKIT_TEST_DATABASE_URL ?? 'postgres://localhost/none');
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: base.toString() });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    const clients: RoomClient[] = [];
    let a: ChaosService | undefined;
    let b: ChaosService | undefined;
    await admin(`create schema ${schema}`);
    try {
      const env = { PALKIT_SECRET: 'one-secret-for-both-instances', PALKIT_ROOM_POLL_MS: '500', DATABASE_URL: url.toString() };
      const A = (a = await startChaosService(env));
      const B = (b = await startChaosService(env));
      const via = (s: ChaosService, at: string) => at.replace(/^http:\/\/[^/]+/, s.process.url);
      /** A conversation whose room A holds (taken by a first join on A), joined again through B: relayed. */
      const relayedThroughB = async (): Promise<RoomClient> => {
        const conv = await A.conversation();
        const first = await RoomClient.join(conv.conversationUrl, conv.meetingToken, 'Visitor');
        await first.waitForEvent('conversation.replica.stopped_speaking', () => true, 20_000);
        const client = await RoomClient.join(via(B, conv.conversationUrl), conv.meetingToken, 'Visitor');
        const closed = (await first.closed).code;
        if (closed !== 4409) throw new Error(`the first join closed with ${closed}, not 4409: the visitor does not speak through B`);
        return client;
      };
      const bystander = await relayedThroughB();
      clients.push(bystander);
      const quiet: number[] = [];
      for (let i = 0; i < 10; i++) quiet.push(await replyMs(bystander));
      for (let i = 0; i < VISITORS; i += 10)
        clients.push(...(await Promise.all(Array.from({ length: Math.min(10, VISITORS - i) }, () => relayedThroughB()))));
      const speakers = clients.slice(1);
      const before = { shedA: await shedOn(A), shedB: await shedOn(B), droppedB: await droppedOn(B) };
      // Real time: every 20 ms each visitor sends the frames due by then (a late timer catches up, as a browser's worklet does).
      let sent = 0;
      const started = performance.now();
      const speaking = (async () => {
        for (let due = 0; performance.now() - started < SECONDS * 1000;) {
          const now = Math.floor((performance.now() - started) / 20);
          for (; due <= now; due++) for (const client of speakers) client.socket.send(microphoneFrame(due));
          sent = due * speakers.length;
          await sleep(20);
        }
      })();
      const busy: number[] = [];
      await sleep(2_000);
      while (performance.now() - started < (SECONDS - 1) * 1000) {
        busy.push(await replyMs(bystander, 30_000));
        await sleep(300);
      }
      await speaking;
      await sleep(1_500); // what is still queued leaves
      A.assertAlive();
      B.assertAlive();
      const shedA = (await shedOn(A)) - before.shedA;
      const shedB = (await shedOn(B)) - before.shedB;
      const overBudget = (await droppedOn(B)) - before.droppedB;
      const summary =
        `${speakers.length} relayed visitors sent ${sent} frames of 16 kHz audio in ${SECONDS} s; payloads shed: A ${shedA}, B ${shedB}; over budget on B: ${overBudget}; ` +
        `relayed bystander quiet p50 ${percentile(quiet, 50).toFixed(0)} ms p95 ${percentile(quiet, 95).toFixed(0)} ms, during p50 ${percentile(busy, 50).toFixed(0)} ms p95 ${percentile(busy, 95).toFixed(0)} ms over ${busy.length} replies`;
      return { summary, sent, shed: shedA + shedB, overBudget, quiet, busy };
    } finally {
      for (const client of clients) client.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await admin(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    }
  },
};
