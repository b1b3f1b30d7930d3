// The public start's defaults against floods (docs/production.md): a rate of starts per client and
// deployment, and a cap on the conversations a client started but never joined. Both answer 429 with
// Retry-After; a deployment's `limits` override the service's defaults.
// A client is its address (an IPv6 address's /64, client-address.ts) and, where the page keeps one, the
// visitor key the elements send: each visitor is held to the deployment's rate, and all the visitors of one
// address together to a higher ceiling (PALKIT_START_RATE_PER_ADDRESS_PER_MINUTE), so an office of 50 behind
// one address starts within a minute while one flooding client, whatever keys it makes up, is still held.
// Without a visitor key the address is held to the deployment's rate, as before. The never-joined cap counts
// per address (one address filling it locked every other visitor out) and only starts of the last minute
// (an unjoined start stops counting then), with a deployment-wide backstop of ten times the cap.
//
// The rate is counted per instance, in memory, on purpose: it is a flood guard, and a refusal that
// costs a database write would make the flood cost the database what it is meant to spare it (one
// address sent 13,560 starts in 10 s). Behind a balancer, N instances admit at most N times the rate.
// The never-joined cap counts the conversations themselves in the database, so every instance sees it;
// it is checked before the write, so starts in flight at the same moment may pass it by as many.
import { sql } from 'kysely';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/app-env.js';
import type { ServiceDeps } from '../../platform/context.js';
import { onePer } from '../../platform/one-per.js';
import type { Db } from '../../platform/db/database.js';
import { refuse } from './refusals.js';
import type { Limits } from './schemas.js';

/** Past this many buckets, the oldest is dropped (an address seen once long ago). */
const MAX_BUCKETS = 100_000;
/** Seconds a visitor is asked to wait when the never-joined cap is reached (a join or an expiry frees a slot). */
const UNJOINED_RETRY_SECONDS = 30;
/** An unjoined start counts against its client's cap for this long (a visitor joins within seconds). */
const UNJOINED_COUNTS_MS = 60_000;
/** The deployment's unjoined starts, all clients together, are bounded at this many times the per-client cap. */
const DEPLOYMENT_BACKSTOP = 10;

/**
 * Per (deployment, client key): `burst` starts at once, then one every 60/perMinute s. Kept as the
 * time each key's allowance is back to full (GCRA), so a refusal changes nothing and the arithmetic
 * stays exact on whole milliseconds.
 */
export class StartRate {
  private readonly fullAt = new Map<string, number>();

  /** Takes one start; 0 when it may go, otherwise the seconds until the next one may. */
  take(key: string, perMinute: number, burst: number, nowMs: number): number {
    const interval = 60_000 / perMinute;
    const capacity = Math.max(1, Math.min(burst, Math.ceil(perMinute)));
    const full = Math.max(this.fullAt.get(key) ?? nowMs, nowMs);
    // Full again at `full`: the allowance left now is capacity - (full - now) / interval.
    const wait = full + interval - nowMs - capacity * interval;
    if (wait > 0) return wait / 1000;
    this.fullAt.delete(key); // re-inserted: the Map's order is the order of last use
    if (this.fullAt.size >= MAX_BUCKETS) this.fullAt.delete(this.fullAt.keys().next().value!);
    this.fullAt.set(key, full + interval);
    return 0;
  }
}

const startRateFor = onePer((_deps: ServiceDeps) => new StartRate());
/** One decision per request: a start re-decided on a fresh read (start.ts) is not charged twice. */
const decided = new WeakMap<object, number>();

/** The start rate in effect: the deployment's, else the service default; null when none applies. */
export function startRate(limits: Limits, deps: Pick<ServiceDeps, 'config'>): number | null {
  const rate = limits.start_rate_per_minute === undefined ? deps.config.frontDoor.startsPerMinute : limits.start_rate_per_minute;
  return rate ? rate : null;
}

/**
 * Refuses (429 too_many_starts + Retry-After) a client past its rate of starts of this deployment: the
 * visitor (`pageKey`, where the page sent one) at the deployment's rate, and its address at the per-address
 * ceiling; without a page key, the address at the deployment's rate.
 */
export function checkStartRate(c: Context<AppEnv>, deploymentId: string, limits: Limits, addressKey: string, pageKey?: string): void {
  const deps = c.get('deps');
  let wait = decided.get(c);
  if (wait === undefined) {
    const rate = startRate(limits, deps);
    const now = deps.clock.now().getTime();
    const rates = startRateFor(deps);
    const { startBurst, startsPerAddressPerMinute } = deps.config.frontDoor;
    if (rate === null) wait = 0;
    else if (pageKey === undefined) wait = rates.take(`${deploymentId} ${addressKey}`, rate, startBurst, now);
    else {
      wait = rates.take(`${deploymentId} ${addressKey} ${pageKey}`, rate, startBurst, now);
      const ceiling = Math.max(rate, startsPerAddressPerMinute);
      if (wait === 0) wait = rates.take(`${deploymentId} ${addressKey} *`, ceiling, ceiling, now);
    }
    decided.set(c, wait);
  }
  if (wait > 0) throw refuse('too_many_starts', 'this address started too many calls; try again later', wait);
}

/** The never-joined cap in effect; null when none applies. */
export function unjoinedCap(limits: Limits, deps: Pick<ServiceDeps, 'config'>): number | null {
  const cap = limits.max_unjoined_calls === undefined ? deps.config.frontDoor.maxUnjoinedCalls : limits.max_unjoined_calls;
  return cap ? cap : null;
}

/**
 * Refuses (429 too_many_unjoined + Retry-After) a start when this client (`addressKey`) already has `cap`
 * local conversations of the deployment that are active, started within the last minute and never joined,
 * or the deployment has ten times as many. (Daily rooms are left out: without a PAL runner nothing marks
 * them joined.)
 */
export async function checkUnjoined(db: Db, deploymentId: string, cap: number | null, now: Date, addressKey: string): Promise<void> {
  if (cap === null) return;
  const since = new Date(now.getTime() - UNJOINED_COUNTS_MS);
  const backstop = cap * DEPLOYMENT_BACKSTOP;
  // Counting stops at the bound: a deployment under a flood has many more rows than it needs to read.
  const { rows } = await sql<{ mine: number; total: number }>`
    select count(*) filter (where visitor_key = ${addressKey})::int as mine, count(*)::int as total from (
      select visitor_key from conversations
      where deployment_id = ${deploymentId} and status = 'active' and provider = 'local' and live_started_at is null
        and created_at > ${since} and (expires_at is null or expires_at > ${now})
      limit ${backstop}
    ) as unjoined`.execute(db);
  const { mine = 0, total = 0 } = rows[0] ?? {};
  if (mine >= cap)
    throw refuse('too_many_unjoined', 'this address started too many calls it did not join; try again in a minute', UNJOINED_RETRY_SECONDS);
  if (total >= backstop)
    throw refuse(
      'too_many_unjoined',
      'too many calls of this deployment were started and not joined; try again later',
      UNJOINED_RETRY_SECONDS,
    );
}
