// A PAL reply that was cut off is kept with what was heard, marked as such, so that a visitor who joins
// again (a reload) sees it as it was shown: interrupted.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('conversation_transcript_entries')
    .addColumn('interrupted', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
