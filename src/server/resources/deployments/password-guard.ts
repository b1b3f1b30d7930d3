// Slows and then stops password guessing from one client address. The counters live in the database
// (not memory) so every instance sees them and a restart does not reset them.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { tooManyRequests } from '../../http/errors.js';

export const ATTEMPT_WINDOW_MS = 15 * 60_000;
/** Failures answered at once; later ones wait a growing delay first. */
export const FREE_FAILURES = 3;
/** After this many failures in the window the address is refused for LOCK_MS. */
export const LOCK_AFTER_FAILURES = 8;
export const LOCK_MS = 15 * 60_000;
const BASE_DELAY_MS = 50;
const MAX_DELAY_MS = 1000;

export interface AttemptState {
  failures: number;
}

/** Refuses a locked-out address (429 too_many_attempts + Retry-After); otherwise waits the delay its failures earned. */
export async function beforePasswordAttempt(db: Db, deploymentId: string, clientKey: string, now: Date, sleep = defaultSleep): Promise<void> {
  const row = await db.selectFrom('deployment_password_attempts').selectAll().where('deployment_id', '=', deploymentId).where('client_key', '=', clientKey).executeTakeFirst();
  if (!row) return;
  if (row.blocked_until && row.blocked_until.getTime() > now.getTime()) {
    throw tooManyRequests('too_many_attempts', (row.blocked_until.getTime() - now.getTime()) / 1000);
  }
  const inWindow = row.window_started_at.getTime() > now.getTime() - ATTEMPT_WINDOW_MS;
  if (inWindow && row.failures >= FREE_FAILURES) await sleep(Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (row.failures - FREE_FAILURES)));
}

/** Counts one failure atomically (concurrent failures all count) and locks the address when it reaches the limit. */
export async function recordPasswordFailure(db: Db, deploymentId: string, clientKey: string, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - ATTEMPT_WINDOW_MS);
  const stale = sql<boolean>`deployment_password_attempts.window_started_at < ${windowStart}`;
  const row = await db
    .insertInto('deployment_password_attempts')
    .values({ deployment_id: deploymentId, client_key: clientKey, failures: 1, window_started_at: now })
    .onConflict((oc) =>
      oc.columns(['deployment_id', 'client_key']).doUpdateSet({
        failures: sql`case when ${stale} then 1 else deployment_password_attempts.failures + 1 end`,
        window_started_at: sql`case when ${stale} then ${now} else deployment_password_attempts.window_started_at end`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  if (row.failures >= LOCK_AFTER_FAILURES) {
    await db.updateTable('deployment_password_attempts').set({ blocked_until: new Date(now.getTime() + LOCK_MS), failures: 0, window_started_at: now })
      .where('deployment_id', '=', deploymentId).where('client_key', '=', clientKey).execute();
  }
  return row.failures;
}

export async function clearPasswordFailures(db: Db, deploymentId: string, clientKey: string): Promise<void> {
  await db.deleteFrom('deployment_password_attempts').where('deployment_id', '=', deploymentId).where('client_key', '=', clientKey).execute();
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
