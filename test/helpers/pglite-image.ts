// One migrated PGlite per test process, kept as an image of its data directory: every in-memory test
// service starts from a copy of it (ServiceOptions.pgliteImage) instead of running initdb and the 26
// migrations again — seconds per service start, hundreds of starts in the suite. The copy is the same
// database the migrations would have made: the service's own migrator finds them all applied.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../../src/server/platform/db/migrate.js';

let image: Promise<Blob> | undefined;

/** The image of a freshly migrated database, made on first use in this process. */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= makeImage();
  return image;
}

async function makeImage(): Promise<Blob> {
  const pglite = await PGlite.create({ extensions: { vector } });
  const db = new Kysely<any>({ dialect: new PGliteDialect({ pglite }) });
  try {
    // As openDatabase does on PGlite: the extension, then the migrations.
    await sql`create extension if not exists vector`.execute(db);
    await migrateToLatest(db, { hasVector: true });
    return await pglite.dumpDataDir('none');
  } finally {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  }
}
