// Media that expires: an upload (POST /v2/uploads) is kept only for its lifetime, then swept away with its
// bytes (resources/uploads/expiry.ts). Other media keep no expiry (null). Indexed for the sweep's lookup.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media').addColumn('expires_at', 'timestamptz').execute();
  await db.schema.createIndex('media_expires_at').on('media').column('expires_at').where('expires_at', 'is not', null).execute();
}
