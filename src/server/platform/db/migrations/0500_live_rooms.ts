// Local conversation rooms: the room's life marks on the conversation (so any instance can enforce its
// timeouts and finish it after a crash), the transcript as it is spoken, and Magic Canvas interactions
// with their per-address rate windows (counted here, not in memory, so instances share them).
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('conversations')
    // When the first participant joined (the call's start; participant_absent_timeout stops applying).
    .addColumn('live_started_at', 'timestamptz')
    // Since when nobody has been in the room (participant_left_timeout counts from here); null while someone is.
    .addColumn('live_empty_since', 'timestamptz')
    // Last sign of life of the instance holding the room; a stale one means the room died with its process.
    .addColumn('live_heartbeat_at', 'timestamptz')
    // When system.shutdown and application.transcription_ready were sent (exactly once, by whichever instance wins).
    .addColumn('live_finalized_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('conversations_live').on('conversations').columns(['provider', 'status', 'live_finalized_at']).execute();

  await db.schema
    .createTable('conversation_transcript_entries')
    .addColumn('entry_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('started_at', 'double precision', (c) => c.notNull())
    .addColumn('seconds_from_start', 'double precision', (c) => c.notNull())
    .addColumn('duration', 'double precision', (c) => c.notNull())
    .addColumn('inference_id', 'text')
    .addColumn('participant_name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('transcript_entries_conversation')
    .on('conversation_transcript_entries')
    .columns(['conversation_id', 'entry_id'])
    .execute();

  await db.schema
    .createTable('canvas_interactions')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('interaction_id', 'text', (c) => c.notNull())
    .addColumn('tool_call_id', 'text', (c) => c.notNull())
    .addColumn('component', 'text', (c) => c.notNull())
    .addColumn('component_version', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('canvas_interactions_unique', ['conversation_id', 'interaction_id'])
    .execute();

  await db.schema
    .createTable('canvas_interaction_rate')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('canvas_interaction_rate_pk', ['bucket', 'window_start'])
    .execute();
}
