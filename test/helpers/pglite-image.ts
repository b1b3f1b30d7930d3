// One migrated PGlite, kept as an image of its data directory: every in-memory test service starts from
// a copy of it (ServiceOptions.pgliteImage) instead of running initdb and the 26 migrations again —
// seconds per service start, hundreds of starts in the suite. The copy is the same database the
// migrations would have made: the service's own migrator finds them all applied.
//
// Making the image costs 8-16 s of a loaded 2-core machine, once per test process, and the suite runs a
// process per file: the image is kept in node_modules/.cache/palkit under the hash of the migrations and
// PGlite's version, so only the first process after a change makes it (others finding none make their
// own; each writes a file of its own and renames it into place, so a reader never sees half an image).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../../src/server/platform/db/migrate.js';
import { migrationsHash } from './migrations-hash.js';

const MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const CACHE = `${MODULES}.cache/palkit/`;

let image: Promise<Blob> | undefined;

/** The image of a freshly migrated database: this process's, the kept one, or made on first use. */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= keptImage();
  return image;
}

async function keptImage(): Promise<Blob> {
  // PGlite's and pgvector's versions (their package.json files) and this file's way of making it.
  const makers = ['@electric-sql/pglite/package.json', '@electric-sql/pglite-pgvector/package.json'].map((p) => readFileSync(MODULES + p, 'utf8'));
  const file = `${CACHE}pglite-image-${migrationsHash(...makers, readFileSync(fileURLToPath(import.meta.url), 'utf8'))}.tar`;
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    const made = await makeImage();
    mkdirSync(CACHE, { recursive: true });
    const own = `${file}.${process.pid}`;
    writeFileSync(own, Buffer.from(await made.arrayBuffer()));
    renameSync(own, file);
    return made;
  }
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
