// Writing a start: the conversation row and the deployment's usage_total go in together, checked
// against the deployment as it is at that moment (the visitor's page may be old, and other service
// instances may be starting calls of the same deployment on the same database). Two ways:
// - one statement, when the limits need no counts of calls (none, or only total_call_limit) and
//   nothing else is written with the conversation: it takes the deployment's row lock only for itself
//   and its commit (no round trip to the service in between), and PostgreSQL re-reads a row it waited
//   for before applying the statement's conditions, so `usage_total < total_call_limit` gives the last
//   slot to exactly one start. Starts of a busy deployment share that statement (start-batch.ts);
// - a transaction otherwise: the conversation (and the consent receipt) first, the row lock last,
//   and then the counts, which, as a statement after the lock, see every call committed before it.
// The one statement also re-checks that the deployment (by its version), the PAL and the face are as
// the start read them, so that a start may rely on a deployment kept from an earlier one (start-cache.ts).
import type { Clock } from '../../platform/time.js';
import type { Db } from '../../platform/db/database.js';
import { onePer } from '../../platform/one-per.js';
import type { ApiError } from '../../platform/http/errors.js';
import type { ConversationInsert, UsablePalAndFace } from '../conversations/create.js';
import { recordConsent } from '../conversations/receipts.js';
import { limitsCountCalls, unavailableReason } from './availability.js';
import { refuse } from './refusals.js';
import { StartBatcher } from './start-batch.js';
import type { StartableDeployment } from './repository.js';
import type { Limits } from './schemas.js';

export interface StartWrite {
  deployment: Pick<StartableDeployment, 'deployment_id' | 'owner_id' | 'version' | 'limits'>;
  /** The deployment was kept from an earlier start: only the one statement may write it (it re-checks it). */
  kept: boolean;
  conversation: ConversationInsert;
  /** The PAL and face the conversation was planned with. */
  palAndFace: UsablePalAndFace;
  visitorKey: string;
  /** The terms the visitor accepted, kept as the conversation's receipt. */
  consent: { text: string; termsUrl: string | null } | null;
  /** A refusal that comes only once the limits have passed (the documented order). */
  refusalAfterLimits: ApiError | null;
}

/**
 * Writes the conversation and counts it, or throws the refusal of the limits (nothing is written then).
 * False, with nothing written, when a kept deployment cannot be relied on: start again from a fresh read.
 */
export async function writeStart(db: Db, clock: Clock, start: StartWrite): Promise<boolean> {
  if (!limitsCountCalls(start.deployment.limits as Limits) && !start.consent && !start.refusalAfterLimits) {
    if (await startBatcherFor(db).write(start)) return true;
    // Nothing was written: the deployment, its PAL or face changed since they were read, or its total
    // limit is reached. The transaction reads the deployment as it is now and refuses with the right
    // code, or writes the call.
  }
  if (start.kept) return false;
  await writeUnderLock(db, clock, start);
  return true;
}

async function writeUnderLock(db: Db, clock: Clock, start: StartWrite): Promise<void> {
  const { deployment, conversation } = start;
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('conversations').values(conversation).execute();
    if (start.consent) await recordConsent(trx, conversation.conversation_id, start.consent, conversation.created_at);
    // Counting this call takes the row lock, last in the transaction so that it is held only until the
    // commit: concurrent starts of this deployment take turns there, so the last slot goes to exactly one
    // of them (a refusal below rolls the count and the conversation back). The counts include this call.
    const counted = await trx
      .updateTable('deployments')
      .set((eb) => ({ usage_total: eb('usage_total', '+', 1) }))
      .where('deployment_id', '=', deployment.deployment_id)
      .returning(['deployment_id', 'status', 'limits', 'usage_total'])
      .executeTakeFirst();
    if (!counted) throw refuse('deployment_not_found');
    const now = clock.now();
    const reason = await unavailableReason(trx, { ...counted, usage_total: counted.usage_total - 1 }, now, start.visitorKey, 1);
    if (reason === 'inactive') throw refuse('deployment_inactive');
    if (reason) throw refuse(reason, undefined, reason === 'busy' ? 30 : secondsToUtcMidnight(now, reason));
    if (start.refusalAfterLimits) throw start.refusalAfterLimits;
  });
}

/** The database's batcher (every start of the instance shares it). */
const startBatcherFor = onePer((db: Db) => new StartBatcher(db));

function secondsToUtcMidnight(now: Date, reason: string): number | undefined {
  if (reason !== 'daily_limit') return undefined;
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return (midnight - now.getTime()) / 1000;
}
