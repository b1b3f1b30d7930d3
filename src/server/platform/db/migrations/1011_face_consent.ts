// The consent a face was made with (POST /v2/faces `consent`): who gave it, when, and to what text, kept
// with the face and shown in its reads. Null for a face created without one (and for faces from before).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('faces').addColumn('consent', 'jsonb').execute();
}
