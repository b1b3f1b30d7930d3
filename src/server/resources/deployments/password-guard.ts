// Slows and then stops password guessing from one client address. The counters live in the database
// (not memory) so every instance sees them and a restart does not reset them. Each attempt is counted
// *before* its password is checked, in one statement (increment-then-read under the row lock), so
// guesses sent in parallel cannot slip past the limit: at most LOCK_AFTER_FAILURES are ever checked
// per window, on PGlite and PostgreSQL alike and across instances.
import { sql } from 'kysely';
import { backoffMs } from '../../platform/backoff.js';
import type { Db } from '../../platform/db/database.js';
import { refuse } from './refusals.js';

export const ATTEMPT_WINDOW_MS = 15 * 60_000;
/** Attempts answered at once; later ones wait a growing delay first. */
export const FREE_FAILURES = 3;
/** At most this many guesses are checked per window; the next one locks the address for LOCK_MS. */
export const LOCK_AFTER_FAILURES = 8;
export const LOCK_MS = 15 * 60_000;
const BASE_DELAY_MS = 50;
const MAX_DELAY_MS = 1000;

/**
 * Counts this attempt, then refuses a locked-out or over-limit address (429 too_many_attempts +
 * Retry-After); otherwise waits the delay its earlier attempts earned. Call before checking the password.
 */
export async function reservePasswordAttempt(
  db: Db,
  deploymentId: string,
  clientKey: string,
  now: Date,
  sleep: (ms: number) => Promise<void>,
): Promise<void> {
  const windowStart = new Date(now.getTime() - ATTEMPT_WINDOW_MS);
  const lockUntil = new Date(now.getTime() + LOCK_MS);
  // A window that has run out, or a lock that has expired, starts the count again.
  const fresh = sql<boolean>`(deployment_password_attempts.window_started_at < ${windowStart} or (deployment_password_attempts.blocked_until is not null and deployment_password_attempts.blocked_until <= ${now}))`;
  const stillLocked = sql<boolean>`(deployment_password_attempts.blocked_until is not null and deployment_password_attempts.blocked_until > ${now})`;
  const row = await db
    .insertInto('deployment_password_attempts')
    .values({ deployment_id: deploymentId, client_key: clientKey, failures: 1, window_started_at: now })
    .onConflict((oc) =>
      oc.columns(['deployment_id', 'client_key']).doUpdateSet({
        failures: sql`case when ${stillLocked} then deployment_password_attempts.failures when ${fresh} then 1 else deployment_password_attempts.failures + 1 end`,
        window_started_at: sql`case when ${stillLocked} then deployment_password_attempts.window_started_at when ${fresh} then ${now} else deployment_password_attempts.window_started_at end`,
        blocked_until: sql`case when ${stillLocked} then deployment_password_attempts.blocked_until when ${fresh} then null when deployment_password_attempts.failures + 1 > ${LOCK_AFTER_FAILURES} then ${lockUntil} else null end`,
      }),
    )
    .returning(['failures', 'blocked_until'])
    .executeTakeFirstOrThrow();
  if (row.blocked_until && row.blocked_until.getTime() > now.getTime()) {
    throw refuse('too_many_attempts', undefined, (row.blocked_until.getTime() - now.getTime()) / 1000);
  }
  const earlier = row.failures - 1;
  if (earlier >= FREE_FAILURES) await sleep(backoffMs(earlier - FREE_FAILURES + 1, { baseMs: BASE_DELAY_MS, maxMs: MAX_DELAY_MS }));
}

/** A right password forgets the address's attempts. */
export async function clearPasswordFailures(db: Db, deploymentId: string, clientKey: string): Promise<void> {
  await db
    .deleteFrom('deployment_password_attempts')
    .where('deployment_id', '=', deploymentId)
    .where('client_key', '=', clientKey)
    .execute();
}
