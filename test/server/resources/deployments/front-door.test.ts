// The public front door's defaults, on a clock the test moves: the start rate per client address, the
// cap on conversations started and never joined, a deployment's overrides, a start while the database
// is away (503 + Retry-After), and conversations that expire together settled in batches that let the
// event loop in.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../../../src/server/platform/db/schema.js';
import { newId } from '../../../../src/server/platform/ids.js';
import { hubFor } from '../../../../src/server/live/hub/hub.js';
import { SETTLE_BATCH } from '../../../../src/server/live/hub/settle.js';
import { databaseUnavailable } from '../../../../src/server/platform/db/unavailable.js';
import { createPal } from '../../../helpers/fixtures.js';
import { freePort } from '../../../helpers/process.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { systemClock } from '../../../../src/server/platform/time.js';

describe('the public front door', () => {
  let t: TestService;
  let palId: string;
  let nowMs = Date.parse('2026-11-25T10:00:00.000Z');
  const advance = (seconds: number) => (nowMs += seconds * 1000);

  before(async () => {
    // The service's defaults (10 starts a minute with a burst of 5, 20 never joined), and X-Forwarded-For
    // names the visitor's address, so each test picks its visitors.
    t = await startListeningService(
      {
        PALKIT_TRUST_PROXY: '1',
        PALKIT_START_RATE_PER_MINUTE: '10',
        PALKIT_START_BURST: '5',
        PALKIT_MAX_UNJOINED_CALLS: '20',
        PALKIT_ROOM_POLL_MS: '60000',
      },
      { clock: { ...systemClock, now: () => new Date(nowMs) } },
    );
    ({ palId } = (await createPal(t)) as { palId: string });
  });
  after(() => t.close());

  async function deployment(limits: Record<string, unknown> = {}): Promise<string> {
    const r = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page', limits });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(
      (await t.api('PATCH', `/v2/deployments/${r.body.deployment_id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status,
      200,
    );
    return r.body.deployment_id;
  }
  const start = (id: string, address: string) =>
    t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null, headers: { 'x-forwarded-for': address } });
  let addressSeq = 0;
  const freshAddress = () => `198.51.100.${(addressSeq++ % 250) + 1}`;

  it('lets an address start a burst, then answers 429 too_many_starts with Retry-After until the rate refills it', async () => {
    const id = await deployment({ max_unjoined_calls: null });
    const visitor = '203.0.113.7';
    for (let i = 0; i < 5; i++) assert.equal((await start(id, visitor)).status, 200, `start ${i + 1} of the burst`);
    const refused = await start(id, visitor);
    assert.equal(refused.status, 429);
    assert.match(refused.body.error, /^too_many_starts/);
    // 10 a minute: the next start is 6 s away.
    assert.equal(refused.headers.get('retry-after'), '6');
    // Another address is not held back by this one.
    assert.equal((await start(id, '203.0.113.8')).status, 200);
    advance(5);
    assert.equal((await start(id, visitor)).status, 429, 'not refilled after 5 s');
    advance(1);
    assert.equal((await start(id, visitor)).status, 200, 'one start refilled after 6 s');
    assert.equal((await start(id, visitor)).status, 429);
    advance(60);
    for (let i = 0; i < 5; i++) assert.equal((await start(id, visitor)).status, 200, 'a full burst after a quiet minute');
  });

  it('caps the conversations a client started and never joined, answering 429 too_many_unjoined until one ends or a minute passes', async () => {
    const id = await deployment({ max_unjoined_calls: 3, start_rate_per_minute: null });
    const visitor = freshAddress();
    const started = [];
    for (let i = 0; i < 3; i++) {
      const r = await start(id, visitor);
      assert.equal(r.status, 200);
      started.push(r.body.conversation_id as string);
    }
    const refused = await start(id, visitor);
    assert.equal(refused.status, 429);
    assert.match(refused.body.error, /^too_many_unjoined/);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    // Another address is not held back by this one's unjoined calls.
    assert.equal((await start(id, freshAddress())).status, 200);
    // An ended conversation no longer waits for its visitor.
    assert.equal((await t.api('POST', `/v2/conversations/${started[0]}/end`)).status, 200);
    assert.equal((await start(id, visitor)).status, 200);
    assert.equal((await start(id, visitor)).status, 429);
    // An unjoined start stops counting after a minute.
    advance(61);
    assert.equal((await start(id, visitor)).status, 200, 'a minute later');
  });

  it("applies the service's default cap of 20 per client to a deployment that sets none; one address cannot make another's start fail", async () => {
    const id = await deployment({ start_rate_per_minute: null });
    const flooder = freshAddress();
    for (let i = 0; i < 20; i++) assert.equal((await start(id, flooder)).status, 200, `start ${i + 1}`);
    const refused = await start(id, flooder);
    assert.equal(refused.status, 429);
    assert.match(refused.body.error, /^too_many_unjoined/);
    for (let i = 0; i < 10; i++) assert.equal((await start(id, freshAddress())).status, 200, `another address's start ${i + 1}`);
  });

  it('within its rate, one address filling its never-joined cap leaves every other address free to start', async () => {
    const id = await deployment();
    const flooder = '203.0.113.66';
    // The default rate (10 a minute, a burst of 5) for 2.5 minutes: 28 starts admitted, 20 of them counted.
    let admitted = 0;
    for (let s = 0; s < 150; s += 6) {
      if ((await start(id, flooder)).status === 200) admitted++;
      advance(6);
    }
    assert.ok(admitted >= 20, `${admitted} starts admitted`);
    for (let i = 0; i < 10; i++) assert.equal((await start(id, freshAddress())).status, 200, `visitor ${i + 1} from another address`);
  });

  it('50 visitors behind one address, each with its own key, all start within a minute; a client rotating keys is still held', async () => {
    const id = await deployment();
    const office = '192.0.2.50';
    const key = (i: number) => `visitor-key-${String(i).padStart(8, '0')}`;
    const startAs = (address: string, visitorKey: string) =>
      t.api('POST', `/v2/deployments/${id}/start`, { visitor_key: visitorKey }, { key: null, headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 50; i++) {
      const r = await startAs(office, key(i));
      assert.equal(r.status, 200, `visitor ${i + 1}: ${JSON.stringify(r.body)}`);
      // Each joins its call, as a visitor does seconds after starting it (the room marks it joined).
      await t.service.deps.db
        .updateTable('conversations')
        .set({ live_started_at: new Date(nowMs) })
        .where('conversation_id', '=', r.body.conversation_id)
        .execute();
      advance(1);
    }
    // One visitor key is held to the deployment's rate (a burst of 5).
    for (let i = 0; i < 5; i++) assert.equal((await startAs('192.0.2.51', key(100))).status, 200, `its start ${i + 1}`);
    assert.equal((await startAs('192.0.2.51', key(100))).status, 429, 'one key past its burst');
    // A client making up a key per start is held by its address's ceiling (60 a minute) and its unjoined cap.
    let admitted = 0;
    for (let i = 0; i < 100; i++) if ((await startAs('192.0.2.52', key(200 + i))).status === 200) admitted++;
    assert.equal(admitted, 20, 'its never-joined cap');
  });

  it('counts an IPv6 /64 as one client', async () => {
    const id = await deployment({ max_unjoined_calls: 2, start_rate_per_minute: null });
    assert.equal((await start(id, '2001:db8:1:2::1')).status, 200);
    assert.equal((await start(id, '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).status, 200);
    assert.equal((await start(id, '2001:0db8:0001:0002::ffff')).status, 429, 'the same /64');
    assert.equal((await start(id, '2001:db8:1:3::1')).status, 200, 'the next /64');
  });

  it("takes a deployment's own rate and cap over the service's, and null for none", async () => {
    const slow = await deployment({ start_rate_per_minute: 2, max_unjoined_calls: null });
    const visitor = '203.0.113.20';
    assert.equal((await start(slow, visitor)).status, 200);
    assert.equal((await start(slow, visitor)).status, 200);
    const refused = await start(slow, visitor);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '30');

    const open = await deployment({ start_rate_per_minute: null, max_unjoined_calls: null });
    for (let i = 0; i < 25; i++) assert.equal((await start(open, '203.0.113.21')).status, 200, `start ${i + 1} with neither limit`);

    // Shown as set, and refused when out of range.
    const shown = await t.api('GET', `/v2/deployments/${slow}`);
    assert.equal(shown.body.limits.start_rate_per_minute, 2);
    assert.equal(
      (await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'embed', limits: { max_unjoined_calls: -1 } })).status,
      400,
    );
  });

  it('answers a start while the database does not answer with 503, its error and Retry-After (not 500)', async () => {
    const id = await deployment({ max_unjoined_calls: null, start_rate_per_minute: null });
    // The service's database becomes a PostgreSQL nobody listens on: every query fails to connect.
    const deps = t.service.deps as { db: unknown };
    const db = deps.db;
    const gone = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ host: '127.0.0.1', port: await freePort(), user: 'x', database: 'x', max: 1 }) }),
    });
    deps.db = gone;
    try {
      const r = await start(id, freshAddress());
      assert.equal(r.status, 503, JSON.stringify(r.body));
      assert.match(r.body.error, /^service_unavailable/);
      assert.equal(r.headers.get('retry-after'), '5');
    } finally {
      deps.db = db;
      await gone.destroy();
    }
    assert.equal((await start(id, freshAddress())).status, 200, 'answered again once the database is back');
  });

  it('tells a database away from a query it refused', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    assert.ok(databaseUnavailable(refused));
    assert.ok(databaseUnavailable(new AggregateError([refused])));
    assert.ok(databaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })));
    assert.ok(databaseUnavailable(new Error('Connection terminated unexpectedly')));
    assert.ok(databaseUnavailable(new Error('timeout exceeded when trying to connect')));
    assert.ok(!databaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })));
    assert.ok(!databaseUnavailable(new Error('syntax error at or near "selec"')));
  });

  it('settles conversations that expire together in bounded batches, answering /healthz between them', async () => {
    const count = 500;
    const created = new Date(nowMs - 3600_000);
    const ids = Array.from({ length: count }, () => newId('c'));
    const { db } = t.service.deps;
    await db
      .insertInto('conversations')
      .values(
        ids.map((conversation_id) => ({
          conversation_id,
          owner_id: 1,
          pal_id: palId,
          conversation_name: 'Never joined',
          provider: 'local' as const,
          conversation_url: `${t.url}/rooms/${conversation_id}`,
          memory_stores: '[]',
          properties: JSON.stringify({ participant_absent_timeout: 60 }),
          created_at: created,
          updated_at: created,
        })),
      )
      .execute();
    // Conversations ended between two turns of the event loop (setImmediate runs once per turn), and
    // /healthz asked again and again while the sweep runs (answered only when the loop reads sockets).
    let ended = 0;
    let endedSinceTurn = 0;
    let mostBetweenTurns = 0;
    let turns = 0;
    let sweeping = true;
    const stop = t.service.deps.bus.on('conversation.ended', () => {
      ended++;
      endedSinceTurn++;
    });
    const turn = () => {
      mostBetweenTurns = Math.max(mostBetweenTurns, endedSinceTurn);
      endedSinceTurn = 0;
      turns++;
      if (sweeping) setImmediate(turn);
    };
    setImmediate(turn);
    const answeredDuringSweep: number[] = [];
    const probes = (async () => {
      while (sweeping) {
        await fetch(`${t.url}/healthz`);
        if (sweeping) answeredDuringSweep.push(ended);
      }
    })();
    await hubFor(t.service.deps).poll();
    sweeping = false;
    await probes;
    stop();

    const endedRows = await db
      .selectFrom('conversations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('conversation_id', 'in', ids)
      .where('status', '=', 'ended')
      .executeTakeFirstOrThrow();
    assert.equal(Number(endedRows.n), count, 'every expired conversation ended in one poll');
    console.log(
      `# ${count} expired conversations: ${turns} turns of the event loop, at most ${mostBetweenTurns} ended between two; /healthz answered ${answeredDuringSweep.length} times during the sweep`,
    );
    // Before, the sweep settled all of them without a turn of the event loop, and /healthz waited for the end.
    assert.ok(turns >= count / SETTLE_BATCH / 2, `the event loop turned between batches (${turns} turns)`);
    assert.ok(mostBetweenTurns <= 2, `one conversation settled between two turns, saw ${mostBetweenTurns}`);
    assert.ok(answeredDuringSweep.length >= 3, `/healthz answered while the sweep ran (${answeredDuringSweep.length} times)`);
  });

  it('settles each conversation the poll ends once: its announced end is not settled again beside it', async () => {
    const created = new Date(nowMs - 3600_000);
    const ids = Array.from({ length: 5 }, () => newId('c'));
    const { db } = t.service.deps;
    await db
      .insertInto('conversations')
      .values(
        ids.map((conversation_id) => ({
          conversation_id,
          owner_id: 1,
          pal_id: palId,
          conversation_name: 'Never joined',
          provider: 'local' as const,
          conversation_url: `${t.url}/rooms/${conversation_id}`,
          memory_stores: '[]',
          properties: JSON.stringify({ participant_absent_timeout: 60 }),
          created_at: created,
          updated_at: created,
        })),
      )
      .execute();
    const hub = hubFor(t.service.deps);
    // Before, each end the poll announced was read and settled again by the hub's own listener (two more
    // statements per conversation, racing the poll's finalizing of it).
    const { settling } = hub as unknown as { settling: { settleEnded(id: string): Promise<void> } };
    const settledAgain = mock.method(settling, 'settleEnded');
    try {
      await hub.poll();
    } finally {
      settledAgain.mock.restore();
    }
    const rows = await db.selectFrom('conversations').select(['status', 'live_finalized_at']).where('conversation_id', 'in', ids).execute();
    assert.deepEqual(
      rows.map((r) => [r.status, r.live_finalized_at !== null]),
      ids.map(() => ['ended', true]),
      'each ended and finalized',
    );
    const events = await db
      .selectFrom('conversation_events')
      .select('conversation_id')
      .where('conversation_id', 'in', ids)
      .where('event_type', '=', 'system.shutdown')
      .execute();
    assert.equal(events.length, ids.length, 'one system.shutdown each');
    assert.equal(settledAgain.mock.callCount(), 0, 'no end settled a second time');
  });
});
