import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { verifiedWebhook } from '../../../helpers/webhook-verify.js';
import { waitUntil } from '../../../helpers/loopback.js';
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { ManualClock } from '../../../helpers/clock.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { JOB_RETRY } from '../../../../src/server/platform/jobs/queue.js';

describe('jobs table', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.close());

  it('runs a job, retries a failing one with backoff and gives up after max attempts', async () => {
    const { jobs, db } = t.service.deps;
    const seen: string[] = [];
    jobs.register('test.ok', async ({ payload }) => void seen.push((payload as { n: string }).n));
    let flaky = 0;
    jobs.register('test.flaky', async () => {
      if (++flaky < 2) throw new Error('first run fails');
      seen.push('flaky done');
    });
    jobs.register('test.broken', async () => {
      throw new Error('always');
    });
    await jobs.enqueue('test.ok', { n: 'one' });
    await jobs.enqueue('test.flaky', {});
    const broken = await jobs.enqueue('test.broken', {}, { maxAttempts: 2 });
    await jobs.drain(15_000);
    assert.deepEqual(seen.sort(), ['flaky done', 'one']);
    const row = await db.selectFrom('jobs').selectAll().where('job_id', '=', broken).executeTakeFirstOrThrow();
    assert.equal(row.status, 'failed');
    assert.equal(row.attempts, 2);
    assert.equal(row.last_error, 'always');
  });

  it('picks up a job whose lease expired (its process died)', async () => {
    const { jobs, db } = t.service.deps;
    let runs = 0;
    jobs.register('test.orphan', async () => void runs++);
    // A row as a killed process leaves it: running, lease in the past.
    await sql`insert into jobs (kind, payload, status, attempts, locked_until) values ('test.orphan', '{}', 'running', 1, now() - interval '1 second')`.execute(
      db,
    );
    await jobs.drain(10_000);
    assert.equal(runs, 1);
  });

  it('never runs a job twice in one process when its lease lapses before the heartbeat', async () => {
    const { jobs, db } = t.service.deps;
    let runs = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    jobs.register('test.slow', async () => {
      runs++;
      await released;
    });
    const id = await jobs.enqueue('test.slow', {});
    await waitUntil(() => runs === 1, 10_000, 'the job to start');
    // What a heartbeat stuck behind a long transaction leaves: the lease of a running job in the past.
    await sql`update jobs set locked_until = now() - interval '1 second' where job_id = ${id}`.execute(db);
    // Several claim passes (each enqueue starts one): every marker that runs was claimed by a pass that,
    // ordering by run_at, would have taken the lapsed job first had the process not excluded its own.
    let markers = 0;
    jobs.register('test.marker', async () => void markers++);
    for (let i = 1; i <= 3; i++) {
      await jobs.enqueue('test.marker', {});
      await waitUntil(() => markers === i, 10_000, `claim pass ${i}`);
    }
    assert.equal(runs, 1, 'the lapsed job was not claimed again by the process running it');
    release();
    await jobs.drain(10_000);
    assert.equal(runs, 1);
    const row = await db.selectFrom('jobs').select(['status', 'attempts']).where('job_id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'done', attempts: 1 });
  });

  it('aborts a run whose job another worker took over, and lets only the new claim finish it', async () => {
    const { jobs, db } = t.service.deps;
    let aborted = false;
    let started = false;
    jobs.register('test.taken', async ({ signal }) => {
      started = true;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = true;
      throw signal.reason;
    });
    const id = await jobs.enqueue('test.taken', {});
    await waitUntil(() => started, 10_000, 'the job to start');
    // Another process claimed it after the lease lapsed: a higher attempt, its own lease.
    await sql`update jobs set attempts = attempts + 1, locked_until = now() + interval '30 seconds' where job_id = ${id}`.execute(db);
    await waitUntil(() => aborted, 10_000, 'the abort'); // the next heartbeat notices
    // The superseded run's ending (its writes, if any) goes before a later job's claim and run on the database.
    let after = false;
    jobs.register('test.after-abort', async () => void (after = true));
    await jobs.enqueue('test.after-abort', {});
    await waitUntil(() => after, 10_000, 'a later job to run');
    const row = await db.selectFrom('jobs').select(['status', 'attempts']).where('job_id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'running', attempts: 2 }, 'the superseded run left the row to its new owner');
    await sql`update jobs set status = 'done' where job_id = ${id}`.execute(db);
  });
});

// The queue's time is the service's clock: when a job falls due, its retry's backoff, its lease and the
// heartbeat that keeps it. On a clock the test moves, "not yet" and "now" are exact, with no waiting.
describe('jobs table, on the test clock', () => {
  let t: TestService;
  const clock = new ManualClock();
  before(async () => {
    t = await startTestService({ PALKIT_JOB_LEASE_SECONDS: '15' }, { clock });
  });
  after(() => t.close());

  it('runs a failed job again only once the clock passes its backoff', async () => {
    const { jobs, db } = t.service.deps;
    let runs = 0;
    jobs.register('clock.flaky', async () => {
      if (++runs === 1) throw new Error('first run fails');
    });
    const id = await jobs.enqueue('clock.flaky', {});
    await jobs.drain(0);
    assert.equal(runs, 1);
    const failed = await db.selectFrom('jobs').select(['status', 'run_at']).where('job_id', '=', id).executeTakeFirstOrThrow();
    assert.equal(failed.status, 'queued');
    assert.equal(new Date(failed.run_at).getTime(), clock.now().getTime() + JOB_RETRY.baseMs, 'the backoff counts from the clock');
    await clock.advance(JOB_RETRY.baseMs - 1);
    await jobs.drain(0);
    assert.equal(runs, 1, 'not before the backoff has passed');
    await clock.advance(1);
    await jobs.drain(0);
    assert.equal(runs, 2);
    assert.equal((await db.selectFrom('jobs').select('status').where('job_id', '=', id).executeTakeFirstOrThrow()).status, 'done');
  });

  it('a job due later runs when the clock reaches its run_at, not a millisecond before', async () => {
    const { jobs } = t.service.deps;
    let ran = false;
    jobs.register('clock.later', async () => void (ran = true));
    await jobs.enqueue('clock.later', {}, { runAt: new Date(clock.now().getTime() + 60_000) });
    await jobs.drain(0);
    // At once (the queue's polls on the way would each find nothing due): the poll that checks is the last.
    await clock.leap(59_999);
    await jobs.drain(0);
    assert.equal(ran, false);
    await clock.advance(1);
    await jobs.drain(0);
    assert.equal(ran, true);
  });

  it("the lease heartbeat keeps a long job's lock while the clock runs past its lease many times", async () => {
    const { jobs, db } = t.service.deps;
    let runs = 0;
    let aborted = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    jobs.register('clock.long', async ({ signal }) => {
      runs++;
      // An abort ends the run too, so that a failed check does not leave the service's stop waiting on it.
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => ((aborted = true), resolve()), { once: true });
        void released.then(resolve);
      });
    });
    const id = await jobs.enqueue('clock.long', {});
    await waitFor(() => runs === 1, { what: 'the long job to start' });
    const lease = 15_000;
    const lockedUntil = async () =>
      new Date(
        (await db.selectFrom('jobs').select('locked_until').where('job_id', '=', id).executeTakeFirstOrThrow()).locked_until!,
      ).getTime();
    for (let i = 0; i < 8; i++) {
      // Four leases in all: without a heartbeat, the lock would lapse. Each step at once: its heartbeat and
      // claim pass run at its end, the claim pass first (its timer fell due first). Each step waits for its
      // own heartbeat (a whole lease from the clock), so no two are in flight at once.
      await clock.leap(lease / 2);
      await waitFor(async () => (await lockedUntil()) === clock.now().getTime() + lease, {
        what: 'the heartbeat to extend the lease a whole lease past the clock',
      });
    }
    assert.equal(runs, 1, 'the job kept its lock: no claim pass took it again');
    assert.equal(aborted, false);
    release();
    await jobs.drain(0);
    const row = await db.selectFrom('jobs').select(['status', 'attempts']).where('job_id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'done', attempts: 1 });
  });
});

describe('webhook delivery', () => {
  let t: TestService;
  let receiver: Receiver;
  before(async () => {
    t = await startTestService();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('delivers bodies in order with Standard Webhooks signatures', async () => {
    const { webhooks, jobs } = t.service.deps;
    receiver.received.length = 0;
    await webhooks.send({
      ownerId: 1,
      url: receiver.url + '/hook',
      bodies: [
        { replica_id: 'r1', status: 'ready' },
        { face_id: 'r1', status: 'ready' },
      ],
    });
    await jobs.drain();
    const [first, second] = await receiver.waitFor(2);
    assert.deepEqual(first!.body, { replica_id: 'r1', status: 'ready' });
    assert.deepEqual(second!.body, { face_id: 'r1', status: 'ready' });
    const secret = (await t.api('GET', '/v2/webhooks/secret')).body.secret;
    assert.match(secret, /^whsec_/);
    for (const r of [first!, second!]) {
      const ok = verifiedWebhook(secret, r.headers, r.raw);
      assert.ok(ok, 'signature verifies');
      assert.ok(!verifiedWebhook(secret, r.headers, r.raw + ' '));
    }
    assert.notEqual(first!.headers['webhook-id'], second!.headers['webhook-id']);
  });

  it('retries a failing receiver and keeps the order', async () => {
    const { webhooks, jobs } = t.service.deps;
    receiver.received.length = 0;
    let calls = 0;
    receiver.respond = () => (++calls === 1 ? 500 : 200);
    await webhooks.send({ ownerId: 1, url: receiver.url + '/retry', bodies: [{ n: 1 }, { n: 2 }] });
    await jobs.drain(20_000);
    const got = await receiver.waitFor(2);
    assert.deepEqual(
      got.map((r) => r.body.n),
      [1, 2],
    );
    assert.equal(calls, 3);
    receiver.respond = 200;
    const list = await t.api('GET', '/v2/webhooks/deliveries?limit=2');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.every((d: { status: string }) => d.status === 'delivered'));
    assert.equal(list.body.data.find((d: { payload: { n: number } }) => d.payload.n === 1).attempts, 2);
  });

  it('does not follow redirects and records the failure', async () => {
    const { webhooks, jobs, db } = t.service.deps;
    receiver.respond = 302;
    const group = await webhooks.send({ ownerId: 1, url: receiver.url + '/moved', bodies: [{ n: 'redirected' }] });
    // The first attempt, and no retry's backoff waited out: what one attempt records is what is checked.
    await jobs.drain(0);
    const row = await db.selectFrom('webhook_deliveries').selectAll().where('group_id', '=', group).executeTakeFirstOrThrow();
    assert.equal(row.response_status, 302);
    assert.notEqual(row.status, 'delivered');
    receiver.respond = 200;
  });

  it('refuses private addresses that are not allowed', async () => {
    const closed = await startTestService({ PALKIT_OUTBOUND_ALLOW: '' });
    try {
      const { webhooks, jobs, db } = closed.service.deps;
      const group = await webhooks.send({ ownerId: 1, url: receiver.url + '/private', bodies: [{ n: 'private' }] });
      await jobs.drain(0);
      const row = await db.selectFrom('webhook_deliveries').selectAll().where('group_id', '=', group).executeTakeFirstOrThrow();
      assert.match(row.last_error ?? '', /not allowed/);
      assert.ok(!receiver.received.some((r) => r.path === '/private'));
    } finally {
      await closed.close();
    }
  });

  it('only shows an owner their own deliveries', async () => {
    const other = await t.api('GET', '/v2/webhooks/deliveries', undefined, { key: 'test-key-owner-2' });
    assert.equal(other.status, 200);
    assert.equal(other.body.data.length, 0);
  });
});
