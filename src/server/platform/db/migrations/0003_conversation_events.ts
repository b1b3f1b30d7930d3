// Callback payloads of each conversation, kept for the verbose conversation read (`events`).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversation_events')
    .addColumn('event_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('conversation_events_conversation')
    .on('conversation_events')
    .columns(['conversation_id', 'event_id'])
    .execute();
}
