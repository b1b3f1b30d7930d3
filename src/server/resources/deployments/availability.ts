// Whether a deployment can take one more call now, and why not: shared by init (to show it) and
// start (to enforce it, under the deployment's row lock so the last slot is taken once).
import type { Db } from '../../db/database.js';
import { countLive, countToday, type DeploymentRow } from './repository.js';
import type { Limits } from './schemas.js';

export type UnavailableReason = 'inactive' | 'daily_limit' | 'total_limit' | 'busy';

/**
 * `pending`: calls the counts already include that are not to be held against the limits (the start
 * checks after writing its own conversation, so it counts one call too many).
 */
export async function unavailableReason(db: Db, row: DeploymentRow, now: Date, visitorKey: string | null, pending = 0): Promise<UnavailableReason | null> {
  if (row.status !== 'active') return 'inactive';
  const limits = row.limits as Limits;
  if (limits.total_call_limit != null && row.usage_total >= limits.total_call_limit) return 'total_limit';
  if (limits.daily_call_limit != null && (await countToday(db, row.deployment_id, now)) - pending >= limits.daily_call_limit) return 'daily_limit';
  if (limits.daily_call_limit_per_user != null && visitorKey !== null && (await countToday(db, row.deployment_id, now, visitorKey)) - pending >= limits.daily_call_limit_per_user) {
    return 'daily_limit';
  }
  if (limits.max_concurrent_calls != null && (await countLive(db, row.deployment_id, now)) - pending >= limits.max_concurrent_calls) return 'busy';
  return null;
}
