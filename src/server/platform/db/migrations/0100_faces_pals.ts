// Faces and PALs area: what face training records beyond 0002 (the probed video facts, when the
// training callbacks were queued), the index the "face still used by a PAL" check needs, and the
// uniqueness of PAL conferencing usernames.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table faces add column training_details jsonb`.execute(db);
  // Set in the same transaction as the final status: a re-run of the job sees it and sends nothing.
  await sql`alter table faces add column callback_sent_at timestamptz`.execute(db);
  await db.schema.createIndex('pals_default_face').on('pals').columns(['default_face_id']).execute();
  // A conferencing address (username@invite domain) reaches exactly one PAL.
  await sql`create unique index pals_conferencing_username on pals ((definition->'layers'->'conferencing'->>'username'))`.execute(db);
}
