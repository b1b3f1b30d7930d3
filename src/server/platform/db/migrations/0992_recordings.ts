// Recordings of local calls: the customer's storage destinations (credentials encrypted, write-only) and
// one row per recording, from the default storage copy (kept 30 days) to the delivery into the
// destination, settled exactly once (the callback is recorded in the same transaction).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recording_destinations')
    .addColumn('destination_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('bucket_name', 'text', (c) => c.notNull())
    .addColumn('region', 'text')
    .addColumn('endpoint', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('credentials', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('recording_destinations_by_owner').on('recording_destinations').columns(['owner_id', 'created_at']).execute();
  await db.schema
    .createTable('recordings')
    .addColumn('recording_id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('recording'))
    .addColumn('default_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull().defaultTo('audio/wav'))
    .addColumn('duration', 'double precision')
    .addColumn('size_bytes', 'bigint')
    .addColumn('destination_id', 'text')
    .addColumn('object_key', 'text')
    .addColumn('copy_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('settled_at', 'timestamptz')
    .addColumn('callback_event', 'text')
    .addColumn('default_deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('recordings_by_conversation').on('recordings').columns(['conversation_id', 'created_at']).execute();
}
