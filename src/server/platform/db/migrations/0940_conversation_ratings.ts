// The visitor's rating of a conversation (1–5 stars, an optional comment), given once on the after-call screen.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversation_ratings')
    .addColumn('conversation_id', 'text', (c) => c.primaryKey().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('stars', 'integer', (c) => c.notNull().check(sql`stars between 1 and 5`))
    .addColumn('comment', 'text')
    .addColumn('rated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
