// Who is in a Daily room, from Daily's participant webhooks: one row per visitor session, so the last
// visitor leaving starts participant_left_timeout however often or in whatever order events arrive.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('daily_participants')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('left_at', 'timestamptz')
    .addPrimaryKeyConstraint('daily_participants_pk', ['conversation_id', 'session_id'])
    .execute();
}
