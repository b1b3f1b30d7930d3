// Speech items in SQL and their wire form (also the callback body). Another owner's item answers 404.
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { notFound } from '../../platform/http/errors.js';
import { isoMillis } from '../../platform/time.js';

export type SpeechRow = Selectable<Database['speech']>;

/** Steps: synthesise (and encode), publish. */
export const SPEECH_STEPS = 2;
export const speechProgress = (done: number) => `${done}/${SPEECH_STEPS}`;

export async function ownedSpeech(db: Db, ownerId: number, speechId: string): Promise<SpeechRow> {
  const row = await db
    .selectFrom('speech')
    .selectAll()
    .where('speech_id', '=', speechId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) throw notFound(`speech ${speechId} not found`);
  return row;
}

export function speechView(row: SpeechRow) {
  const ready = row.status === 'ready';
  return {
    speech_id: row.speech_id,
    speech_name: row.speech_name,
    status: row.status,
    script: row.script,
    audio_url: ready ? row.audio_url : null,
    duration: ready && row.duration !== null ? Math.round(row.duration * 1000) / 1000 : null,
    generation_progress: row.generation_progress,
    error_details: row.error_details,
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
  };
}
