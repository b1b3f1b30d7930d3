// Chaos: the relay carries what budgets allow. Thirty visitors whose rooms instance A holds are connected
// to instance B, each speaking 16 kHz microphone audio in real time (20 ms frames), so that everything
// they say crosses the instance channel (LISTEN/NOTIFY on the shared PostgreSQL). Nothing is shed, on
// either instance, and a relayed bystander's replies stay within 500 ms of its quiet ones.
// PostgreSQL leg only: PGlite's database belongs to one process.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { percentile, replyMs, startChaosService, type ChaosService } from '../helpers/chaos.js';
import { RoomClient, sleep } from '../helpers/live-fixtures.js';
import { onPostgres } from '../helpers/service.js';

const VISITORS = 30;
const SECONDS = 15;
const RATE = 16_000;

/** One 20 ms microphone frame: kind 2, the rate, then 16-bit samples (a quiet tone). */
function microphoneFrame(i: number): Buffer {
  const samples = RATE / 50;
  const bytes = Buffer.alloc(8 + samples * 2);
  bytes.writeUInt8(2, 0);
  bytes.writeUInt32LE(RATE, 4);
  for (let s = 0; s < samples; s++) bytes.writeInt16LE(Math.round(3000 * Math.sin((i * samples + s) / 5)), 8 + s * 2);
  return bytes;
}

describe('chaos: thirty visitors relayed through a second instance speak in real time', { skip: !onPostgres && 'the PostgreSQL leg only (PALKIT_TEST_DATABASE_URL)', timeout: 240_000 }, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const base = new URL(process.env.PALKIT_TEST_DATABASE_URL ?? 'postgres://localhost/none');
  let a: ChaosService;
  let b: ChaosService;
  const clients: RoomClient[] = [];

  const databaseUrl = () => {
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    return url.toString();
  };
  const via = (s: ChaosService, url: string) => url.replace(/^http:\/\/[^/]+/, s.process.url);
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: base.toString() });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  async function metric(s: ChaosService, name: string, labels = ''): Promise<number> {
    const text = await (await fetch(`${s.process.url}/metrics`)).text();
    return Number(new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  }
  const shed = async (s: ChaosService) => (await metric(s, 'palkit_relay_shed_total', '{kind="audio"}')) + (await metric(s, 'palkit_relay_shed_total', '{kind="message"}'));
  const dropped = (s: ChaosService) => metric(s, 'palkit_room_input_dropped_total', '{kind="audio"}');

  /** A conversation whose room A holds (taken by a first join on A), joined again through B: relayed. */
  async function relayedThroughB(): Promise<RoomClient> {
    const conv = await a.conversation();
    const first = await RoomClient.join(conv.conversationUrl, conv.meetingToken, 'Visitor');
    await first.waitForEvent('conversation.replica.stopped_speaking', () => true, 20_000);
    const client = await RoomClient.join(via(b, conv.conversationUrl), conv.meetingToken, 'Visitor');
    assert.equal((await first.closed).code, 4409, 'the visitor now speaks through B');
    return client;
  }

  before(async () => {
    await admin(`create schema ${schema}`);
    const env = { PALKIT_SECRET: 'one-secret-for-both-instances', PALKIT_ROOM_POLL_MS: '500' };
    a = await startChaosService({ ...env, DATABASE_URL: databaseUrl() });
    b = await startChaosService({ ...env, DATABASE_URL: databaseUrl() });
  });
  after(async () => {
    for (const client of clients) client.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await admin(`drop schema if exists ${schema} cascade`).catch(() => undefined);
  });

  it('nothing they say is shed, and a relayed bystander answers as when the channel was quiet', async () => {
    const bystander = await relayedThroughB();
    clients.push(bystander);
    const quiet: number[] = [];
    for (let i = 0; i < 10; i++) quiet.push(await replyMs(bystander));
    for (let i = 0; i < VISITORS; i += 10) clients.push(...(await Promise.all(Array.from({ length: Math.min(10, VISITORS - i) }, () => relayedThroughB()))));
    const speakers = clients.slice(1);
    const before = { shedA: await shed(a), shedB: await shed(b), droppedA: await dropped(a), droppedB: await dropped(b) };

    // Real time: every 20 ms each visitor sends the frames due by then (a late timer catches up, as a browser's worklet does).
    let sent = 0;
    const started = performance.now();
    const speaking = (async () => {
      for (let due = 0; performance.now() - started < SECONDS * 1000; ) {
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
    a.assertAlive();
    b.assertAlive();
    const after = { shedA: await shed(a), shedB: await shed(b), droppedA: await dropped(a), droppedB: await dropped(b) };
    const lost = after.shedA - before.shedA + (after.shedB - before.shedB);
    console.log(
      `# ${speakers.length} relayed visitors sent ${sent} frames of 16 kHz audio in ${SECONDS} s; payloads shed: A ${after.shedA - before.shedA}, B ${after.shedB - before.shedB}; ` +
        `over budget: A ${after.droppedA - before.droppedA}, B ${after.droppedB - before.droppedB}; relayed bystander quiet p95 ${percentile(quiet, 95).toFixed(0)} ms, ` +
        `busy p95 ${percentile(busy, 95).toFixed(0)} ms over ${busy.length} replies`,
    );
    assert.equal(lost, 0, `${lost} payloads shed (${((lost / Math.max(1, sent)) * 100).toFixed(1)} % of the frames)`);
    assert.equal(after.droppedB - before.droppedB, 0, 'real-time audio stays within every budget');
    assert.ok(percentile(busy, 95) < percentile(quiet, 95) + 500, `the relayed bystander's replies took ${busy.map((r) => r.toFixed(0)).join(', ')} ms`);
  });
});
