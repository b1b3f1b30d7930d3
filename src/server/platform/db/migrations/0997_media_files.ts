// Media bytes out of the embedded database: on PGlite a stored file's bytes (megabytes of speech or video)
// were written on the service's only thread, a stall every room felt. Such a row now names its file in the
// data folder and keeps no bytes; older rows keep theirs and are read as before. PostgreSQL keeps bytea.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('media')
    .alterColumn('bytes', (c) => c.dropNotNull())
    .execute();
  await db.schema.alterTable('media').addColumn('file', 'text').addColumn('size', 'bigint').execute();
}
