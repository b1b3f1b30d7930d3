// Generated videos and speech items. Intermediate artifacts of a generation (the synthesised speech,
// the fetched background, the rendered files) are recorded on the row as soon as they exist, so a
// job that is interrupted resumes from the last finished step instead of starting over.
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('videos')
    .addColumn('video_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('face_id', 'text', (c) => c.notNull())
    .addColumn('video_name', 'text', (c) => c.notNull())
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('generating'))
    .addColumn('status_details', 'text')
    .addColumn('generation_progress', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('background_url', 'text')
    .addColumn('background_source_url', 'text')
    .addColumn('speech_media_url', 'text')
    .addColumn('background_media_url', 'text')
    .addColumn('background_kind', 'text')
    .addColumn('video_media_url', 'text')
    .addColumn('still_media_url', 'text')
    .addColumn('gif_media_url', 'text')
    .addColumn('error_details', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('videos_owner').on('videos').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('speech')
    .addColumn('speech_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('speech_name', 'text', (c) => c.notNull())
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('voice', 'text', (c) => c.notNull())
    .addColumn('audio_format', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('generating'))
    .addColumn('generation_progress', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('audio_url', 'text')
    .addColumn('duration', 'double precision')
    .addColumn('error_details', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('speech_owner').on('speech').columns(['owner_id', 'created_at']).execute();
}
