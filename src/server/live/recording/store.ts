// A room's recording from start to the default storage: the row, the live PCM file, and on close the
// WAV kept in the default storage for RETENTION_DAYS, with the copy and prune jobs enqueued in the same
// transaction that marks it stored.
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceDeps } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { wavHeader } from '../../platform/audio/wav.js';
import { CallRecorder, RECORDING_RATE } from './call-recorder.js';
import { defaultStorage } from '../../providers/storage/default-storage.js';
import { RECORDING_COPY_JOB, RECORDING_PRUNE_JOB } from '../../resources/recordings/jobs.js';
import { roomLimits } from '../../resources/conversations/limits.js';

export const RETENTION_DAYS = 30;
const CONTENT_TYPE = 'audio/wav';

export interface LiveRecording {
  recordingId: string;
  recorder: CallRecorder;
}

/** Whether a conversation asked to be recorded (its own property, or its deployment's, copied at start). */
export function recordingRequested(properties: Record<string, unknown>): boolean {
  return properties.enable_recording === true;
}

const livePath = (deps: ServiceDeps, recordingId: string) => join(deps.config.recording.dir, 'live', `${recordingId}.pcm`);

/** Starts the conversation's recording, or continues the one a previous room (before a restart) left open. */
export async function startRecording(
  deps: ServiceDeps,
  conv: { conversationId: string; ownerId: number; properties: Record<string, unknown> },
): Promise<LiveRecording> {
  const open = await deps.db
    .selectFrom('recordings')
    .select('recording_id')
    .where('conversation_id', '=', conv.conversationId)
    .where('status', '=', 'recording')
    .executeTakeFirst();
  let recordingId = open?.recording_id;
  if (!recordingId) {
    recordingId = newId('rec_', 16);
    const destination = typeof conv.properties.recording_destination_id === 'string' ? conv.properties.recording_destination_id : null;
    await deps.db
      .insertInto('recordings')
      .values({
        recording_id: recordingId,
        conversation_id: conv.conversationId,
        owner_id: conv.ownerId,
        status: 'recording',
        default_key: `${conv.ownerId}/${conv.conversationId}/${recordingId}.wav`,
        destination_id: destination,
        created_at: deps.clock.now(),
      })
      .execute();
  }
  // The call's clock is the service's (a test moves it).
  return {
    recordingId,
    recorder: await CallRecorder.start(livePath(deps, recordingId), roomLimits(conv.properties).maxCallDuration, deps.clock),
  };
}

/** The room closed for good at `endedAt` (epoch ms): the WAV goes to the default storage and the delivery starts. */
export async function keepRecording(deps: ServiceDeps, live: LiveRecording, endedAt?: number): Promise<void> {
  await live.recorder.stop(endedAt);
  await storeRecording(deps, live.recordingId);
}

/**
 * The conversation ended without its room closing it (the process recording it died): what was written
 * before the crash is kept like any recording. A no-op when the room kept it, or the file is elsewhere.
 */
export async function keepLeftRecordings(deps: ServiceDeps, conversationId: string): Promise<void> {
  const open = await deps.db
    .selectFrom('recordings')
    .select('recording_id')
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'recording')
    .execute();
  for (const { recording_id } of open) {
    if (await stat(livePath(deps, recording_id)).catch(() => null)) await storeRecording(deps, recording_id);
  }
}

async function storeRecording(deps: ServiceDeps, recordingId: string): Promise<void> {
  const path = livePath(deps, recordingId);
  const row = await deps.db.selectFrom('recordings').selectAll().where('recording_id', '=', recordingId).executeTakeFirst();
  if (!row || row.status !== 'recording') return;
  const pcm = await readFile(path);
  const total = pcm.length / 2;
  const body = Buffer.concat([wavHeader(pcm.length / 2, RECORDING_RATE), pcm]);
  await defaultStorage(deps.config.recording).put(row.default_key, body, CONTENT_TYPE);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + RETENTION_DAYS * 86_400_000);
  const key = row.destination_id ? await objectKey(deps, row.destination_id, row.conversation_id, row.recording_id) : null;
  await deps.db.transaction().execute(async (trx) => {
    const stored = await trx
      .updateTable('recordings')
      .set({
        status: 'stored',
        duration: Math.round((total / RECORDING_RATE) * 1000) / 1000,
        size_bytes: body.length,
        ended_at: now,
        expires_at: expiresAt,
        object_key: key,
        content_type: CONTENT_TYPE,
      })
      .where('recording_id', '=', row.recording_id)
      .where('status', '=', 'recording')
      .returning('recording_id')
      .executeTakeFirst();
    if (!stored) return;
    if (row.destination_id)
      await deps.jobs.enqueue(RECORDING_COPY_JOB, { recording_id: row.recording_id, owner_id: row.owner_id }, { db: trx, maxAttempts: 50 });
    await deps.jobs.enqueue(RECORDING_PRUNE_JOB, { recording_id: row.recording_id }, { db: trx, runAt: expiresAt, maxAttempts: 10 });
  });
  await rm(path, { force: true });
}

/** The room stops on this process only (restart): what was recorded stays in the PCM file for the next room. */
export async function pauseRecording(live: LiveRecording, stoppedAt?: number): Promise<void> {
  await live.recorder.stop(stoppedAt);
}

async function objectKey(deps: ServiceDeps, destinationId: string, conversationId: string, recordingId: string): Promise<string> {
  const d = await deps.db
    .selectFrom('recording_destinations')
    .select('prefix')
    .where('destination_id', '=', destinationId)
    .executeTakeFirst();
  const prefix = (d?.prefix ?? '').replace(/^\/+|\/+$/g, '');
  return `${prefix ? `${prefix}/` : ''}${conversationId}/${recordingId}.wav`;
}
