// Memory stores for visitors: a store may carry a participant tag (a stable visitor identifier given as
// memory_stores when a conversation starts) and, for a PAL-specific store, the PAL it belongs to.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memory_stores').addColumn('pal_id', 'text').execute();
  await db.schema.alterTable('memory_stores').addColumn('participant_tag', 'text').execute();
  // One PAL-specific store per PAL and visitor; one tag-based (PAL-independent) store per owner and visitor.
  await sql`create unique index memory_stores_pal_participant on memory_stores (owner_id, pal_id, participant_tag) where pal_id is not null and participant_tag is not null`.execute(
    db,
  );
  await sql`create unique index memory_stores_tag_participant on memory_stores (owner_id, participant_tag) where pal_id is null and participant_tag is not null`.execute(
    db,
  );
}
