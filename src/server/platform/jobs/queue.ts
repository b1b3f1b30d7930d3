// Background work from the jobs table: claimed with FOR UPDATE SKIP LOCKED under a lease that a
// running handler keeps extending, so a killed process's jobs are picked up again after restart and
// several instances can share one PostgreSQL. A claim is fenced by its attempt number: a run whose
// lease was taken over (its heartbeat came too late) is aborted and cannot mark the job done, and a
// process never claims a job it is itself still running, however late its heartbeat is.
// A kind that talks to slow outside parties can be limited (`withLimits`): at most so many of its jobs run
// at once in a process (by default one slot fewer than the queue has, so other kinds always get one), and
// at most so many per lane (the owner named in the payload), so one owner's stalled destination cannot
// hold the slots another owner's callbacks need.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { scrubText, type Logger } from '../log.js';
import { backoffMs } from '../backoff.js';
import type { Clock, ClockTimer } from '../time.js';

export interface JobContext<P = unknown> {
  jobId: number;
  payload: P;
  /** 1 on the first run; higher when a previous run failed or was interrupted. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the queue stops (shutdown); handlers should stop early. */
  signal: AbortSignal;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one registry holds handlers of every payload type
export type JobHandler<P = any> = ((ctx: JobContext<P>) => Promise<void>) & { limits?: JobLimits };

export interface JobLimits {
  /** At most this many jobs of the kind run at once in this process (default: the queue's concurrency - 1). */
  maxRunning?: number;
  /** The payload field naming a job's lane (an owner id); jobs without it share one lane. */
  laneField?: string;
  /** At most this many jobs of one lane run at once in this process (default 1). */
  perLane?: number;
}

/** The handler, run under these limits. */
export function withLimits<P>(handler: (ctx: JobContext<P>) => Promise<void>, limits: JobLimits): JobHandler<P> {
  return Object.assign(handler, { limits });
}

/** Throw this from a handler to retry later without counting it as a crash. */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    message = 'retry later',
  ) {
    super(message);
  }
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** Run inside this transaction (the job exists only if it commits). */
  db?: Db;
}

export interface JobQueue {
  enqueue(kind: string, payload: unknown, options?: EnqueueOptions): Promise<number>;
  register(kind: string, handler: JobHandler): void;
  start(): void;
  /** Started and not stopped (readiness). */
  isRunning(): boolean;
  /** Stops claiming, aborts running handlers and gives their claims back (queued again at once). */
  stop(): Promise<void>;
  /**
   * Resolves when this process runs no job and none is due on the clock before `withinMs` from now (tests and
   * benchmarks): it runs what is due at once and waits (on the clock) for the jobs due within the window, so
   * on a manual clock `drain(0)` settles the jobs due now, and the later ones wait for the test's advance.
   */
  drain(withinMs?: number): Promise<void>;
}

export interface QueueOptions {
  db: Db;
  log: Logger;
  /** The queue's time: when jobs fall due, their leases, retries, heartbeats and polls (ServiceDeps.clock). */
  clock: Clock;
  leaseSeconds: number;
  /** How many jobs run at once in this process. */
  concurrency?: number;
  pollMs?: number;
}

/** A failed job's next try: 0.5 s after the first failure, doubling up to a minute. */
export const JOB_RETRY = { baseMs: 500, maxMs: 60_000 } as const;

export function createJobQueue(options: QueueOptions): JobQueue {
  const { db, log, clock, leaseSeconds } = options;
  const leaseFrom = (now: Date) => new Date(now.getTime() + leaseSeconds * 1000);
  const concurrency = options.concurrency ?? 4;
  const pollMs = options.pollMs ?? 250;
  const handlers = new Map<string, JobHandler>();
  const abort = new AbortController();
  /** The jobs this process is running, by job id. */
  const running = new Map<number, { kind: string; lane: string; run: Promise<void> }>();
  let timer: ClockTimer | undefined;
  /** A claim pass asked for at once (work is waiting now): the next turn, not a time on the clock. */
  let immediate = false;
  /**
   * The claim pass under way, if any. One at a time: the limits are worked out from the jobs this process
   * runs, so a second pass claiming meanwhile (an enqueue while the first waits for its claim) would take a
   * second job of a full lane. It resolves with how many jobs it claimed.
   */
  let pass: Promise<number> | undefined;
  let started = false;
  let tickAgain = false;

  async function claim(): Promise<{ job_id: number; kind: string; payload: unknown; attempts: number; max_attempts: number } | undefined> {
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return undefined;
    // A claim can wait behind a long transaction (PGlite has one connection) and run after the lease
    // of a job this process is running lapsed, before that job's heartbeat got its turn.
    const mine = running.size > 0 ? sql`and job_id not in (${sql.join([...running.keys()])})` : sql``;
    const limited = limitedKinds();
    // Due and lapsed by the service's clock (not the database's now()), so that tests can move time.
    const now = clock.now();
    const result = await sql<{ job_id: number; kind: string; payload: unknown; attempts: number; max_attempts: number }>`
      update jobs set status = 'running', attempts = attempts + 1,
        locked_until = ${leaseFrom(now)}, updated_at = ${now}
      where job_id = (
        select job_id from jobs
        where kind in (${sql.join(kinds)})
          and ((status = 'queued' and run_at <= ${now}) or (status = 'running' and locked_until < ${now}))
          ${mine}
          ${limited}
        order by run_at, job_id
        for update skip locked
        limit 1)
      returning job_id, kind, payload, attempts, max_attempts`.execute(db);
    const row = result.rows[0];
    return row ? { ...row, job_id: Number(row.job_id) } : undefined;
  }

  /** Exclusions for the kinds (and lanes) that have used up their slots in this process. */
  function limitedKinds() {
    const parts = [];
    for (const [kind, handler] of handlers) {
      const limits = handler.limits;
      if (!limits) continue;
      const mineOfKind = [...running.values()].filter((r) => r.kind === kind);
      const maxRunning = limits.maxRunning ?? Math.max(1, concurrency - 1);
      if (mineOfKind.length >= maxRunning) {
        parts.push(sql`and kind <> ${kind}`);
        continue;
      }
      if (!limits.laneField) continue;
      const perLane = limits.perLane ?? 1;
      const counts = new Map<string, number>();
      for (const r of mineOfKind) counts.set(r.lane, (counts.get(r.lane) ?? 0) + 1);
      const full = [...counts].filter(([, n]) => n >= perLane).map(([lane]) => lane);
      if (full.length) parts.push(sql`and not (kind = ${kind} and coalesce(payload ->> ${limits.laneField}, '') in (${sql.join(full)}))`);
    }
    return parts.length ? sql.join(parts, sql` `) : sql``;
  }

  function laneOf(kind: string, payload: unknown): string {
    const field = handlers.get(kind)?.limits?.laneField;
    const value = field && typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[field] : undefined;
    return value === undefined || value === null ? '' : String(value);
  }

  async function runOne(job: NonNullable<Awaited<ReturnType<typeof claim>>>): Promise<void> {
    const handler = handlers.get(job.kind)!;
    // This run's claim: another claim of the job (after a lapsed lease) has a higher attempt number.
    const ours = () =>
      db.updateTable('jobs').where('job_id', '=', job.job_id).where('status', '=', 'running').where('attempts', '=', job.attempts);
    const lost = new AbortController();
    const signal = AbortSignal.any([abort.signal, lost.signal]);
    let settled = false; // the handler returned or threw: a late heartbeat finding no row means nothing
    const heartbeat = clock.setInterval(
      () => {
        // Never backwards: a slow heartbeat still in flight on another connection may commit after a newer one.
        void ours()
          .set({ locked_until: sql`greatest(locked_until, ${leaseFrom(clock.now())})` as never })
          .executeTakeFirst()
          .then((result) => {
            if (result.numUpdatedRows > 0n || lost.signal.aborted || settled) return;
            log.info('job lease lost', { job_id: job.job_id, kind: job.kind, attempt: job.attempts });
            lost.abort();
          })
          .catch(() => undefined);
      },
      Math.max(200, (leaseSeconds * 1000) / 3),
    );
    try {
      await handler({ jobId: job.job_id, payload: job.payload, attempt: job.attempts, maxAttempts: job.max_attempts, signal });
      settled = true;
      await ours().set({ status: 'done', locked_until: null, updated_at: clock.now() }).execute();
    } catch (error) {
      settled = true;
      if (lost.signal.aborted) return; // taken over: the other run owns the job now
      if (abort.signal.aborted) {
        // Shutting down: give the claim back so another instance (or the next start) runs it at once.
        const now = clock.now();
        await ours()
          .set({ status: 'queued', locked_until: null, run_at: now, updated_at: now })
          .execute()
          .catch(() => undefined);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const retry = error instanceof RetryLater;
      const exhausted = !retry && job.attempts >= job.max_attempts;
      log.info('job failed', { job_id: job.job_id, kind: job.kind, attempt: job.attempts, final: exhausted, error: message.slice(0, 200) });
      const now = clock.now();
      await ours()
        .set({
          status: exhausted ? 'failed' : 'queued',
          locked_until: null,
          last_error: scrubText(message).slice(0, 1000),
          run_at: new Date(now.getTime() + (retry ? (error as RetryLater).delayMs : backoffMs(job.attempts, JOB_RETRY))),
          // A deliberate retry does not use up an attempt.
          ...(retry ? { attempts: sql`attempts - 1` as never } : {}),
          updated_at: now,
        })
        .execute()
        .catch(() => undefined);
    } finally {
      clock.clearTimeout(heartbeat);
    }
  }

  /** One claim pass: claims and starts due jobs until the slots are full or nothing is due. */
  async function tick(): Promise<number> {
    if (timer) clock.clearTimeout(timer);
    timer = undefined;
    if (abort.signal.aborted) return 0;
    if (pass) {
      tickAgain = true;
      return pass;
    }
    pass = claimDue();
    let claimed = 0;
    try {
      claimed = await pass;
    } finally {
      pass = undefined;
    }
    const again = tickAgain;
    tickAgain = false;
    schedule(again ? 0 : pollMs);
    return claimed;
  }

  async function claimDue(): Promise<number> {
    let claimed = 0;
    try {
      while (running.size < concurrency && !abort.signal.aborted) {
        const job = await claim();
        if (!job) break;
        claimed++;
        const run = runOne(job).finally(() => {
          running.delete(job.job_id);
          schedule(0);
        });
        running.set(job.job_id, { kind: job.kind, lane: laneOf(job.kind, job.payload), run });
      }
    } catch (error) {
      if (!abort.signal.aborted) log.error('job poll failed', { error: error instanceof Error ? error.message : String(error) });
    }
    return claimed;
  }

  /** A claim pass in `ms` on the clock; 0 means "work is waiting now": the next turn of the event loop. */
  function schedule(ms: number): void {
    if (!started || abort.signal.aborted) return;
    if (ms <= 0) {
      if (!immediate) {
        immediate = true;
        setImmediate(() => {
          immediate = false;
          void tick();
        });
      }
      return;
    }
    if (!timer && !immediate) timer = clock.setTimeout(() => void tick(), ms);
  }

  /**
   * A claim pass once a job enqueued in the caller's transaction is visible (committed): looked for after
   * 10 ms, then less often, a dozen times in all (a rolled-back job never shows); the regular poll remains.
   */
  function afterCommit(jobId: number, attempt = 0): void {
    if (attempt >= 12 || !started || abort.signal.aborted) return;
    const committed = () => db.selectFrom('jobs').select('job_id').where('job_id', '=', jobId).executeTakeFirst();
    // eslint-disable-next-line no-restricted-globals -- waits for the caller's commit: database I/O in real time, not the service's time
    setTimeout(
      () =>
        void committed().then(
          (row) => (row ? schedule(0) : afterCommit(jobId, attempt + 1)),
          () => undefined,
        ),
      Math.min(250, 10 * 2 ** attempt),
    ).unref();
  }

  /** The earliest run_at (ms) of a job this process could run, due by `until`; lapsed leases count as due now. */
  async function nextDue(until: Date): Promise<number | undefined> {
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return undefined;
    const now = clock.now();
    const row = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min<Date>(sql`case when status = 'running' then ${now}::timestamptz else run_at end` as never).as('at'))
      .where('kind', 'in', kinds)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', until)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .executeTakeFirst();
    return row?.at ? new Date(row.at).getTime() : undefined;
  }

  return {
    async enqueue(kind, payload, opts = {}) {
      const row = await (opts.db ?? db)
        .insertInto('jobs')
        .values({
          kind,
          payload: JSON.stringify(payload),
          run_at: opts.runAt ?? clock.now(),
          ...(opts.maxAttempts ? { max_attempts: opts.maxAttempts } : {}),
        } as never)
        .returning('job_id')
        .executeTakeFirstOrThrow();
      const jobId = Number(row.job_id);
      if (!opts.db) schedule(0);
      else afterCommit(jobId);
      return jobId;
    },
    register(kind, handler) {
      handlers.set(kind, handler);
    },
    start() {
      started = true;
      schedule(0);
    },
    isRunning() {
      return started && !abort.signal.aborted;
    },
    async stop() {
      abort.abort();
      clock.clearTimeout(timer);
      await Promise.allSettled([...running.values()].map((r) => r.run));
    },
    async drain(withinMs = 20_000) {
      if (!started || abort.signal.aborted) throw new Error('the job queue is not running');
      const until = new Date(clock.now().getTime() + withinMs);
      let emptyPasses = 0;
      for (;;) {
        while (pass) await pass;
        const claimed = await tick();
        if (running.size > 0) {
          // A job ending is what changes the picture (it frees a slot, may enqueue more): wait for one.
          await Promise.race([...running.values()].map((r) => r.run));
          continue;
        }
        const due = await nextDue(until);
        if (due === undefined) return;
        // Due later: wait for it on the clock. Due now yet not claimed twice running (another process holds
        // its row, or the database refused): try again after a poll's time rather than at once.
        emptyPasses = claimed === 0 ? emptyPasses + 1 : 0;
        const wait = due - clock.now().getTime();
        if (wait > 0) await clock.sleep(wait, abort.signal);
        else if (emptyPasses > 1) await clock.sleep(pollMs, abort.signal);
      }
    },
  };
}
