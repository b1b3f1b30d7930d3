// How a generation job ends, a video's or a speech item's: its final status is set once, only while the row
// is still `generating`, in one transaction with its callback, so a rerun never sends a second one; and a
// failure ends it only when it is permanent (a RenderError) or the queue's last attempt.
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { JobContext } from '../../platform/jobs/queue.js';
import { scrubText } from '../../platform/log.js';
import { RenderError } from './render/renderer.js';

export type GenerationOutcome = { status: 'ready' } | { status: 'error'; error: string };

/**
 * Sets the final status through `update` (the row it changed, or nothing when the row is gone or already
 * finished) and, when the row names a callback, sends `body` as `<kind>.<status>` in the same transaction.
 */
export async function finishGeneration<Row extends { owner_id: number; callback_url: string | null; status: string }>(
  deps: Pick<ServiceDeps, 'db' | 'webhooks'>,
  kind: 'video' | 'speech',
  update: (trx: Db) => Promise<Row | undefined>,
  body: (row: Row) => Record<string, unknown>,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const updated = await update(trx);
    if (!updated?.callback_url) return;
    await deps.webhooks.send({
      ownerId: updated.owner_id,
      url: updated.callback_url,
      bodies: [body(updated)],
      eventType: `${kind}.${updated.status}`,
      db: trx,
    });
  });
}

/** What an errored row keeps of its failure: scrubbed of secrets, at most 1,000 characters. */
export function errorDetails(message: string): string {
  return scrubText(message).slice(0, 1000);
}

/**
 * The message a failed generation ends with. Rethrows `error` when it must not end it: the service is
 * shutting down (the lease expires and a later run resumes), or passing trouble with attempts left.
 */
export function endingFailure(error: unknown, job: Pick<JobContext, 'attempt' | 'maxAttempts' | 'signal'>): string {
  if (job.signal.aborted) throw error;
  if (!(error instanceof RenderError) && job.attempt < job.maxAttempts) throw error;
  return error instanceof Error ? error.message : String(error);
}
