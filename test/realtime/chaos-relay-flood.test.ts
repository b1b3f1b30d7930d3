// Chaos: a visitor connected to instance B floods a room held by instance A, so the flood crosses the
// instance channel (LISTEN/NOTIFY on the shared PostgreSQL). B reaches the database over a link slowed
// to 512 KB/s upstream (a proxy), so that what the flooder gets past its budget — a second of 96 kHz
// microphone on every join, joining again whenever it is closed — arrives faster than the channel can
// send. B's send queue stays bounded (audio shed first, counted in /metrics), another visitor relayed
// through B to A keeps answering in time, and B's memory stays bounded.
// PostgreSQL leg only: PGlite's database belongs to one process.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { flood, percentile, replyMs, startChaosService, type ChaosService, type Conversation } from '../helpers/chaos.js';
import { RoomClient, sleep } from '../helpers/live-fixtures.js';
import { onPostgres } from '../helpers/service.js';
import { startThrottledProxy, type ThrottledProxy } from '../helpers/throttled-proxy.js';
import { SEND_QUEUE_LIMITS } from '../../src/server/live/cluster/send-queue.js';

const LINK_BYTES_PER_SECOND = 512 * 1024;

describe(
  'chaos: a flood relayed through a second instance',
  { skip: !onPostgres && 'the PostgreSQL leg only (PALKIT_TEST_DATABASE_URL)', timeout: 180_000 },
  () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const base = new URL(process.env.PALKIT_TEST_DATABASE_URL ?? 'postgres://localhost/none');
    let proxy: ThrottledProxy;
    let a: ChaosService;
    let b: ChaosService;
    let bystander: RoomClient;

    /** The database URL of an instance: the test's schema first on its search path, optionally through the proxy. */
    const databaseUrl = (port?: number) => {
      const url = new URL(base);
      if (port) {
        url.hostname = '127.0.0.1';
        url.port = String(port);
      }
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
      return Number(new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
    }

    /** A conversation whose room A holds (taken by a first join on A), joined again through B: relayed. */
    async function relayedThroughB(): Promise<{ conv: Conversation; client: RoomClient }> {
      const conv = await a.conversation();
      const first = await RoomClient.join(conv.conversationUrl, conv.meetingToken, 'Visitor');
      await first.waitForEvent('conversation.replica.stopped_speaking', () => true, 10_000);
      const client = await RoomClient.join(via(b, conv.conversationUrl), conv.meetingToken, 'Visitor');
      assert.equal((await first.closed).code, 4409, 'the visitor now speaks through B');
      return { conv, client };
    }

    before(async () => {
      await admin(`create schema ${schema}`);
      proxy = await startThrottledProxy({ host: base.hostname, port: Number(base.port || 5432) }, LINK_BYTES_PER_SECOND);
      const env = { PALKIT_SECRET: 'one-secret-for-both-instances', PALKIT_ROOM_POLL_MS: '500' };
      a = await startChaosService({ ...env, DATABASE_URL: databaseUrl() });
      b = await startChaosService({ ...env, DATABASE_URL: databaseUrl(proxy.port) });
      bystander = (await relayedThroughB()).client;
    });
    after(async () => {
      bystander?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await proxy?.close();
      await admin(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    });

    it('the channel queue stays bounded and sheds audio, another relayed room answers in time, memory stays bounded', async () => {
      const quiet: number[] = [];
      for (let i = 0; i < 10; i++) quiet.push(await replyMs(bystander));
      const { conv } = await relayedThroughB();
      const rssBefore = b.rssMb();
      const flooding = flood({ ...conv, conversationUrl: via(b, conv.conversationUrl) }, 'hifi', 20_000);
      let done = false;
      void flooding.finally(() => (done = true)).catch(() => undefined);
      const replies: number[] = [];
      let peakQueue = 0;
      const lag = { a: 0, b: 0 };
      const sampling = (async () => {
        while (!done) {
          peakQueue = Math.max(peakQueue, await metric(b, 'palkit_relay_queue_bytes'));
          lag.a = Math.max(lag.a, await metric(a, 'palkit_nodejs_eventloop_lag_max_seconds'));
          lag.b = Math.max(lag.b, await metric(b, 'palkit_nodejs_eventloop_lag_max_seconds'));
          await sleep(100);
        }
      })();
      while (!done || replies.length < 10) {
        replies.push(await replyMs(bystander, 60_000));
        await sleep(250);
      }
      const result = await flooding;
      await sampling;
      a.assertAlive();
      b.assertAlive();
      const growth = b.rssMb() - rssBefore;
      const shed = await metric(b, 'palkit_relay_shed_total', '{kind="audio"}');
      console.log(
        `# ${result.sent} frames of 96 kHz over ${result.sessions} connections; bystander quiet p95 ${percentile(quiet, 95).toFixed(0)} ms, ` +
          `during the flood p95 ${percentile(replies, 95).toFixed(0)} ms (max ${Math.max(...replies).toFixed(0)}) over ${replies.length} replies; ` +
          `B's queue peaked at ${(peakQueue / 1024).toFixed(0)} KiB; ${shed} audio payloads shed; B's memory +${growth.toFixed(0)} MB; ` +
          `longest event-loop stall A ${(lag.a * 1000).toFixed(0)} ms, B ${(lag.b * 1000).toFixed(0)} ms`,
      );
      // Measured against the same bystander's quiet replies of this run (the machine may be busy with more than this test).
      assert.ok(
        percentile(replies, 95) < percentile(quiet, 95) + 500,
        `the relayed bystander's replies took ${replies.map((r) => r.toFixed(0)).join(', ')} ms (quiet p95 ${percentile(quiet, 95).toFixed(0)} ms)`,
      );
      assert.ok(peakQueue <= SEND_QUEUE_LIMITS.maxBytes, `B's channel queue reached ${peakQueue} bytes`);
      assert.ok(shed > 0, 'the flood outran the link, and the audio past the bound was shed and counted');
      assert.ok(growth < 300, `B's memory grew by ${growth.toFixed(0)} MB`);
    });
  },
);
