// The conversation's transcript, written turn by turn as it is spoken so that any instance can send
// `application.transcription_ready` with all of it, even after the room's process died.
import type { TranscriptEntry } from '../../../protocol/callbacks.js';
import type { RoomTranscriptEntry } from '../../../protocol/room.js';
import type { Db } from '../../platform/db/database.js';

/** `interrupted`: the PAL was cut off and `content` is what was heard (kept for the room's history, not the callback). Answers the row's id. */
export async function appendTranscriptEntry(
  db: Db,
  conversationId: string,
  entry: TranscriptEntry & { interrupted?: boolean },
): Promise<number> {
  const row = await db
    .insertInto('conversation_transcript_entries')
    .values({
      conversation_id: conversationId,
      role: entry.role,
      content: entry.content,
      started_at: entry.timestamp,
      seconds_from_start: entry.seconds_from_start,
      duration: entry.duration,
      inference_id: entry.inference_id ?? null,
      participant_name: entry.participant_name ?? null,
      interrupted: entry.interrupted === true,
    })
    .returning('entry_id')
    .executeTakeFirstOrThrow();
  return row.entry_id;
}

/** A turn written while it went on (the PAL's utterance as heard so far), brought up to date. */
export async function updateTranscriptEntry(
  db: Db,
  entryId: number,
  entry: Pick<TranscriptEntry, 'content' | 'duration'> & { interrupted?: boolean },
): Promise<void> {
  await db
    .updateTable('conversation_transcript_entries')
    .set({ content: entry.content, duration: entry.duration, interrupted: entry.interrupted === true })
    .where('entry_id', '=', entryId)
    .execute();
}

/** The latest `limit` turns, oldest first, as the room sends them to a participant who joins. */
export async function loadRoomHistory(db: Db, conversationId: string, limit: number): Promise<RoomTranscriptEntry[]> {
  const rows = await db
    .selectFrom('conversation_transcript_entries')
    .select(['role', 'content', 'started_at', 'inference_id', 'interrupted'])
    .where('conversation_id', '=', conversationId)
    .orderBy('started_at', 'desc')
    .orderBy('entry_id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({
    role: r.role,
    content: r.content,
    timestamp: r.started_at,
    ...(r.role === 'assistant' && r.inference_id ? { inference_id: r.inference_id } : {}),
    ...(r.interrupted ? { interrupted: true } : {}),
  }));
}

/** In the order the turns began (ties keep the order they were written). */
export async function loadTranscript(db: Db, conversationId: string): Promise<TranscriptEntry[]> {
  const rows = await db
    .selectFrom('conversation_transcript_entries')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('started_at')
    .orderBy('entry_id')
    .execute();
  return rows.map((r) => ({
    role: r.role,
    content: r.content,
    timestamp: r.started_at,
    seconds_from_start: r.seconds_from_start,
    duration: r.duration,
    ...(r.role === 'assistant' && r.inference_id ? { inference_id: r.inference_id } : {}),
    ...(r.role === 'user' && r.participant_name ? { participant_name: r.participant_name } : {}),
  }));
}

/** Seconds rounded to milliseconds (the transcript's floats). */
export function roundSeconds(s: number): number {
  return Math.round(s * 1000) / 1000;
}
