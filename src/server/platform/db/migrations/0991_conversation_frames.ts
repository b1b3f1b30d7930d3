// Camera frames a local room sampled for perception (a handful per conversation, evenly spread over the
// call), kept until the perception analysis has been made, then deleted.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversation_frames')
    .addColumn('frame_id', 'serial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('captured_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('image', 'bytea', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversation_frames_by_conversation')
    .on('conversation_frames')
    .columns(['conversation_id', 'captured_at'])
    .execute();
}
