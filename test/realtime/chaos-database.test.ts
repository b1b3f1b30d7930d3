// Chaos: the database comes and goes under live rooms. Two service processes share a PostgreSQL of this
// test's own (restarting the suite's shared cluster would break the files running beside this one); one
// room is joined directly, one through the other instance (relayed over LISTEN/NOTIFY). Every service
// connection is terminated with pg_terminate_backend, three times; the sending connections are
// terminated while no new connection may be opened; and then the server is stopped and started again. The processes never exit, /readyz answers 503 while the database is away and 200 once
// it and the channel's connections are back, and both rooms answer again.
// PostgreSQL leg only (on PGlite the database is in the process and cannot go away).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { replyMs, startChaosService, type ChaosService, type Conversation } from '../helpers/chaos.js';
import { RoomClient, sleep } from '../helpers/live-fixtures.js';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from '../helpers/own-postgres.js';
import { onPostgres } from '../helpers/service.js';

const skip = onPostgres ? ownPostgresUnavailable() : 'the PostgreSQL leg only (PALKIT_TEST_DATABASE_URL)';

describe('chaos: the database comes and goes under live rooms', { skip: skip ?? false, timeout: 180_000 }, () => {
  let db: OwnPostgres;
  let a: ChaosService;
  let b: ChaosService;
  /** Joined on A, held by A. */
  let direct: RoomClient;
  /** Joined on B, relayed to the room wherever it is held (A, until a restart moves it). */
  let relayed: RoomClient;
  let relayedConv: Conversation;

  const via = (s: ChaosService, url: string) => url.replace(/^http:\/\/[^/]+/, s.process.url);
  const readyz = async (s: ChaosService) => {
    try {
      return (await fetch(`${s.process.url}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
    } catch {
      return 0;
    }
  };
  async function until(s: ChaosService, status: number, timeoutMs: number, what: string): Promise<number> {
    const started = Date.now();
    for (;;) {
      s.assertAlive();
      if ((await readyz(s)) === status) return Date.now() - started;
      if (Date.now() - started > timeoutMs) assert.fail(`${what}: /readyz did not answer ${status} within ${timeoutMs} ms`);
      await sleep(100);
    }
  }
  const serviceConnections = () =>
    db.query<{ application_name: string }>(
      `select application_name from pg_stat_activity where application_name like 'palkit%' order by 1`,
    );

  /** The relayed visitor, joined again when its room moved while the database was away (close code 1012: join again). */
  async function relayedVisitor(): Promise<RoomClient> {
    if (relayed.socket.readyState === relayed.socket.OPEN) return relayed;
    const { code } = await relayed.closed;
    assert.equal(code, 1012, 'a relayed visitor is only told to join again');
    relayed = await RoomClient.join(via(b, relayedConv.conversationUrl), relayedConv.meetingToken, 'Relayed');
    return relayed;
  }

  /** The relayed visitor's reply time; told to join again meanwhile, it does and asks again. */
  async function relayedReplyMs(): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      const client = await relayedVisitor();
      const left = client.closed.then(({ code }) => new Error(`closed with ${code}`));
      const answer = await Promise.race([replyMs(client, 15_000), left]);
      if (typeof answer === 'number') return answer;
      if (attempt > 0) throw answer;
    }
  }

  async function bothRoomsAnswer(what: string): Promise<void> {
    const times = [await replyMs(direct, 15_000), await relayedReplyMs()];
    console.log(`# ${what}: the direct room answered in ${times[0]!.toFixed(0)} ms, the relayed one in ${times[1]!.toFixed(0)} ms`);
  }

  before(async () => {
    db = await startOwnPostgres();
    const env = { DATABASE_URL: db.url, PALKIT_SECRET: 'one-secret-for-both-instances', PALKIT_ROOM_POLL_MS: '200' };
    a = await startChaosService(env);
    b = await startChaosService(env);
    direct = (await a.call()).client;
    // The room is taken on A, then its visitor comes back through B: relayed from B to A.
    relayedConv = await a.conversation();
    const first = await RoomClient.join(relayedConv.conversationUrl, relayedConv.meetingToken, 'Relayed');
    await first.waitForEvent('conversation.replica.stopped_speaking', () => true, 10_000);
    relayed = await RoomClient.join(via(b, relayedConv.conversationUrl), relayedConv.meetingToken, 'Relayed');
    assert.equal((await first.closed).code, 4409, 'the visitor now speaks through B');
    await bothRoomsAnswer('before');
  });
  after(async () => {
    direct?.close();
    relayed?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
  });

  it('every service connection terminated, three times: the processes live on, the channel reconnects, both rooms answer', async () => {
    const before = await serviceConnections();
    assert.deepEqual(
      [...new Set(before.map((c) => c.application_name))],
      ['palkit', 'palkit/listen', 'palkit/send'],
      'the service names its connections',
    );
    for (let round = 0; round < 3; round++) {
      // A turn is under way in both rooms when their connections go.
      const asking = [replyMs(direct, 3_000), replyMs(relayed, 3_000)].map((p) => p.catch(() => NaN));
      // Each instance has at least a pool connection and its two channel connections (one may be in the
      // middle of opening again when asked: ask again for a moment).
      let killed = 0;
      for (let i = 0; i < 10 && killed < 6; i++, await sleep(100)) {
        killed += (await db.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name like 'palkit%'`)).length;
      }
      assert.ok(killed >= 6, `terminated ${killed} connections`);
      await Promise.all(asking);
      a.assertAlive();
      b.assertAlive();
    }
    for (const [s, name] of [
      [a, 'A'],
      [b, 'B'],
    ] as const)
      await until(s, 200, 15_000, `instance ${name} after the terminations`);
    const channels = (await serviceConnections()).map((c) => c.application_name).filter((n) => n !== 'palkit');
    assert.deepEqual(
      channels,
      ['palkit/listen', 'palkit/listen', 'palkit/send', 'palkit/send'],
      'both instances opened their channel connections again',
    );
    await bothRoomsAnswer('after the terminations');
  });

  it('the sending connection lost while no connection can be opened: /readyz answers 503 for the channel until it is back', async () => {
    // New connections to the service's database are refused; those open stay (the pool still answers).
    await db.query(`alter database postgres allow_connections false`, [], 'template1');
    try {
      const killed = await db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'palkit/send'`,
        [],
        'template1',
      );
      assert.equal(killed.length, 2);
      for (const s of [a, b]) {
        await until(s, 503, 10_000, 'with the sending connection gone');
        const body = (await (await fetch(`${s.process.url}/readyz`)).json()) as { error: string };
        assert.match(body.error, /room channel/, 'the channel is what is not ready');
      }
    } finally {
      await db.query(`alter database postgres allow_connections true`, [], 'template1');
    }
    for (const [s, name] of [
      [a, 'A'],
      [b, 'B'],
    ] as const)
      await until(s, 200, 15_000, `instance ${name} once connections are allowed again`);
    await bothRoomsAnswer('after the sending connections came back');
  });

  it('the database restarted: /readyz answers 503 while it is away and 200 when it is back, and both rooms answer again', async () => {
    await db.stop();
    const down = await Promise.all([
      until(a, 503, 10_000, 'A with the database stopped'),
      until(b, 503, 10_000, 'B with the database stopped'),
    ]);
    // Rooms are spoken to while the database is away.
    direct.say('conversation.respond', { text: 'Anyone there?' });
    relayed.say('conversation.respond', { text: 'Anyone there?' });
    await sleep(3_000);
    a.assertAlive();
    b.assertAlive();
    assert.equal(await readyz(a), 503, 'still not ready while the database is away');
    await db.start();
    const up = await Promise.all([until(a, 200, 30_000, 'A after the restart'), until(b, 200, 30_000, 'B after the restart')]);
    console.log(`# /readyz 503 after ${Math.max(...down)} ms; 200 again ${Math.max(...up)} ms after the database started`);
    await sleep(2_000); // the turns asked for while the database was away are answered first
    assert.equal(direct.socket.readyState, direct.socket.OPEN, 'the visitor on the holding instance stayed connected');
    await bothRoomsAnswer('after the restart');
    for (const s of [a, b]) {
      s.assertAlive();
      assert.doesNotMatch(s.process.output(), /unhandled|uncaught/i);
    }
  });
});
