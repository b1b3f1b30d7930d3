// The copy job (delivery into the customer's destination, retried with doubling backoff) and the prune
// job (the default copy removed after the retention window). A recording settles exactly once: the
// status change and its callback (`application.recording_ready` or `application.recording_copy_failed`)
// commit in one transaction guarded by `settled_at is null`, so a run that delivered but died before
// settling re-delivers the same object and still sends one callback.
import { sql } from 'kysely';
import { backoffMs } from '../../platform/backoff.js';
import type { ServiceDeps } from '../../platform/context.js';
import { RetryLater, withLimits, type JobHandler } from '../../platform/jobs/queue.js';
import { isoMillis } from '../../platform/time.js';
import { recordConversationCallbacks, type ConversationCallback } from '../conversations/events-store.js';
import { defaultStorage } from '../../providers/storage/default-storage.js';
import { readDestination } from './destinations.js';
import { DeliveryError, deliver, type Destination } from '../../providers/storage/uploaders.js';
import { scrubText } from '../../platform/log.js';

type Payload = { recording_id: string; owner_id?: number };

/** Failures another attempt cannot mend: the copy settles at once. A refusal by the address policy is one. */
const FINAL_CODES = new Set(['destination_not_found', 'recording_missing', 'endpoint_blocked', 'outbound_blocked']);

/** Enqueued by the live room's recorder (live/recording/store.ts) when a recording is kept. */
export const RECORDING_COPY_JOB = 'recordings.copy';
export const RECORDING_PRUNE_JOB = 'recordings.prune';

export function recordingJobs(deps: ServiceDeps): Record<string, JobHandler> {
  return {
    // One slot per owner (a destination that stalls holds only its owner's), and never every slot.
    [RECORDING_COPY_JOB]: withLimits(
      async ({ payload, signal }: { payload: Payload; signal: AbortSignal }) => copy(deps, payload.recording_id, signal),
      { laneField: 'owner_id', perLane: 1 },
    ),
    [RECORDING_PRUNE_JOB]: async ({ payload }: { payload: Payload }) => {
      const row = await deps.db
        .selectFrom('recordings')
        .select(['default_key', 'default_deleted_at'])
        .where('recording_id', '=', payload.recording_id)
        .executeTakeFirst();
      if (!row || row.default_deleted_at) return;
      await defaultStorage(deps.config.recording).delete(row.default_key);
      await deps.db
        .updateTable('recordings')
        .set({ default_deleted_at: deps.clock.now() })
        .where('recording_id', '=', payload.recording_id)
        .execute();
    },
  };
}

async function copy(deps: ServiceDeps, recordingId: string, signal: AbortSignal): Promise<void> {
  const { retryMs, maxAttempts } = deps.config.recording;
  // Counted before trying, so an attempt a crash interrupted counts too.
  const row = await deps.db
    .updateTable('recordings')
    .set({ copy_attempts: sql`copy_attempts + 1` as never, status: 'copying' })
    .where('recording_id', '=', recordingId)
    .where('settled_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row || !row.destination_id || !row.object_key) return;
  const { copyTimeoutMs, idleMs } = deps.config.recording;
  let provider: Destination['provider'] = 's3';
  let failure: DeliveryError;
  try {
    // Inside the try: a destination the address policy refuses fails this attempt (and, being final, the copy).
    const destination = await readDestination(deps, row.destination_id);
    if (!destination) throw new DeliveryError('destination_not_found', `recording destination ${row.destination_id} no longer exists`);
    provider = destination.provider;
    const body = await defaultStorage(deps.config.recording).get(row.default_key);
    if (!body) throw new DeliveryError('recording_missing', 'the recording is no longer in the default storage');
    const limits = { outboundAllow: deps.config.outboundAllow, fetch: deps.fetch, timeoutMs: copyTimeoutMs, idleMs };
    const { storageUri } = await deliver(destination, row.object_key, body, row.content_type, signal, limits);
    await settle(deps, row, 'delivered', {
      event_type: 'application.recording_ready',
      properties: {
        bucket_name: destination.bucketName,
        s3_key: row.object_key,
        duration: row.duration ?? 0,
        storage_provider: provider,
        storage_uri: storageUri,
      },
    });
    return;
  } catch (error) {
    if (signal.aborted) throw error;
    const raw =
      error instanceof DeliveryError ? error : new DeliveryError('delivery_failed', error instanceof Error ? error.message : String(error));
    // Storage errors can quote signed URLs or endpoints with credentials; the message is returned and sent.
    failure = new DeliveryError(raw.code, scrubText(raw.message));
  }
  const final = row.copy_attempts >= maxAttempts || FINAL_CODES.has(failure.code);
  deps.log.info('recording copy failed', { recording_id: recordingId, attempt: row.copy_attempts, final, error_code: failure.code });
  if (!final) {
    await deps.db
      .updateTable('recordings')
      .set({
        last_error: `${failure.code}: ${failure.message}`.slice(0, 1000),
        next_attempt_at: new Date(deps.clock.now().getTime() + backoff(retryMs, row.copy_attempts)),
      })
      .where('recording_id', '=', recordingId)
      .execute();
    throw new RetryLater(backoff(retryMs, row.copy_attempts), failure.message);
  }
  await settle(deps, row, 'copy_failed', {
    event_type: 'application.recording_copy_failed',
    properties: {
      recording_id: row.recording_id,
      s3_key: row.object_key,
      duration: row.duration ?? 0,
      storage_provider: provider,
      error_code: failure.code,
      error_message: failure.message,
    },
  });
}

/** Doubling from PALKIT_RECORDING_RETRY_MS, at most six hours apart. */
function backoff(retryMs: number, attempt: number): number {
  return backoffMs(attempt, { baseMs: retryMs, maxMs: 6 * 3600_000 });
}

async function settle(
  deps: ServiceDeps,
  row: { recording_id: string; conversation_id: string },
  status: 'delivered' | 'copy_failed',
  callback: { event_type: string; properties: Record<string, unknown> },
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const settled = await trx
      .updateTable('recordings')
      .set({
        status,
        settled_at: now,
        callback_event: callback.event_type,
        next_attempt_at: null,
        ...(status === 'copy_failed' ? { last_error: String(callback.properties.error_message ?? '') } : {}),
      })
      .where('recording_id', '=', row.recording_id)
      .where('settled_at', 'is', null)
      .returning('recording_id')
      .executeTakeFirst();
    if (!settled) return;
    const conv = await trx
      .selectFrom('conversations')
      .select(['conversation_id', 'owner_id', 'callback_url'])
      .where('conversation_id', '=', row.conversation_id)
      .executeTakeFirstOrThrow();
    const payload: ConversationCallback = {
      conversation_id: conv.conversation_id,
      event_type: callback.event_type,
      message_type: 'application',
      timestamp: isoMillis(now),
      properties: callback.properties,
    };
    await recordConversationCallbacks(deps, trx, conv, [payload]);
  });
}
