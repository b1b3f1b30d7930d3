// What the visitor heard, per PAL reply, measured in their page (issue 26): from the end of their turn
// to the PAL's first audible sample and first mouth movement, and the lip-sync offset over the reply.
// Figures the page could not take are null, never 0.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversation_turn_latencies')
    .addColumn('latency_id', 'serial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('inference_id', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('turn_ended_at', 'double precision', (c) => c.notNull())
    .addColumn('heard_ms', 'double precision')
    .addColumn('mouth_ms', 'double precision')
    .addColumn('lip_sync_ms', 'double precision')
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('conversation_turn_latencies_conversation')
    .on('conversation_turn_latencies')
    .column('conversation_id')
    .execute();
}
