// Whether a deployment can take one more call now, and why not: shared by init (to show it) and
// start (to enforce it, under the deployment's row lock so the last slot is taken once).
import type { Db } from '../../platform/db/database.js';
import { countCalls, type DeploymentRow } from './repository.js';
import type { Limits } from './schemas.js';

export type UnavailableReason = 'inactive' | 'daily_limit' | 'total_limit' | 'busy';

/** Whether the limits compare against counts of the deployment's calls (total_call_limit needs only its usage_total). */
export function limitsCountCalls(limits: Limits): boolean {
  return limits.daily_call_limit != null || limits.daily_call_limit_per_user != null || limits.max_concurrent_calls != null;
}

/**
 * `pending`: calls the counts already include that are not to be held against the limits (the start
 * checks after writing its own conversation, so it counts one call too many).
 */
export async function unavailableReason(
  db: Db,
  row: Pick<DeploymentRow, 'deployment_id' | 'status' | 'limits' | 'usage_total'>,
  now: Date,
  visitorKey: string | null,
  pending = 0,
): Promise<UnavailableReason | null> {
  if (row.status !== 'active') return 'inactive';
  const limits = row.limits as Limits;
  if (limits.total_call_limit != null && row.usage_total >= limits.total_call_limit) return 'total_limit';
  if (!limitsCountCalls(limits)) return null;
  const perVisitor = limits.daily_call_limit_per_user != null ? visitorKey : null;
  const calls = await countCalls(db, row.deployment_id, now, {
    today: limits.daily_call_limit != null,
    visitorKey: perVisitor,
    live: limits.max_concurrent_calls != null,
  });
  if (limits.daily_call_limit != null && calls.today - pending >= limits.daily_call_limit) return 'daily_limit';
  if (limits.daily_call_limit_per_user != null && perVisitor !== null && calls.visitorToday - pending >= limits.daily_call_limit_per_user)
    return 'daily_limit';
  if (limits.max_concurrent_calls != null && calls.live - pending >= limits.max_concurrent_calls) return 'busy';
  return null;
}
