// One migrated PGlite, kept as an image of its data directory: every in-memory test service starts from
// a copy of it (ServiceOptions.pgliteImage) instead of running initdb and the 26 migrations again —
// seconds per service start, hundreds of starts in the suite. The copy is the same database the
// migrations would have made: the service's own migrator finds them all applied.
//
// The image is trimmed for tests (trimForTests below: fewer shared buffers, no template databases).
//
// Making the image costs 8-16 s of a loaded 2-core machine, once per test process, and the suite runs a
// process per file: the image is kept in node_modules/.cache/palkit under the hash of the migrations and
// PGlite's version, so only the first process after a change makes it (others finding none make their
// own; each writes a file of its own and renames it into place, so a reader never sees half an image).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../../src/server/platform/db/migrate.js';
import { migrationsHash } from './migrations-hash.js';

const MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const CACHE = `${MODULES}.cache/palkit/`;

let image: Promise<{ blob: Blob; file: string }> | undefined;
/** This file's text as this process loaded it: read later, an edit meanwhile would name the new way's image after the old way's. */
const OWN_TEXT = readFileSync(fileURLToPath(import.meta.url), 'utf8');

/** The image of a freshly migrated database: this process's, the kept one, or made on first use. */
export async function migratedPgliteImage(): Promise<Blob> {
  image ??= keptImage();
  return (await image).blob;
}

/**
 * The kept image's file (made first if need be), for a service process started in memory: PALKIT_PGLITE_IMAGE
 * names it, and the process's database starts from it as an in-process test service's does.
 */
export async function migratedPgliteImageFile(): Promise<string> {
  image ??= keptImage();
  return (await image).file;
}

/**
 * A PGlite data folder (PALKIT_DATA) that does not hold a database yet gets the migrated one, unpacked
 * from the kept image: a service on a folder of its own then starts in 2-4 s rather than 9-10 (initdb and
 * the migrations). A folder that holds one already (a restart) is left alone.
 */
export async function seedDataFolder(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  image ??= keptImage();
  const { file } = await image;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The image's members are named from its root (/pg_wal, …): tar unpacks them under dir.
  execFileSync('tar', ['-xf', file, '-C', dir], { stdio: 'ignore' });
}

async function keptImage(): Promise<{ blob: Blob; file: string }> {
  // PGlite's and pgvector's versions (their package.json files) and this file's way of making it.
  const makers = ['@electric-sql/pglite/package.json', '@electric-sql/pglite-pgvector/package.json'].map((p) =>
    readFileSync(MODULES + p, 'utf8'),
  );
  const file = `${CACHE}pglite-image-${migrationsHash(...makers, OWN_TEXT)}.tar`;
  try {
    return { blob: new Blob([readFileSync(file)]), file };
  } catch {
    const made = await makeImage();
    mkdirSync(CACHE, { recursive: true });
    const own = `${file}.${process.pid}`;
    writeFileSync(own, Buffer.from(await made.arrayBuffer()));
    renameSync(own, file);
    return { blob: made, file };
  }
}

async function makeImage(): Promise<Blob> {
  // Loaded here, when no kept image is found: a process on the PostgreSQL leg, or one reading the kept image
  // (the service loads PGlite itself when it runs on it), does not load them for this.
  const [{ PGlite }, { vector }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector')]);
  const pglite = await PGlite.create({ extensions: { vector } });
  const db = new Kysely<any>({ dialect: new PGliteDialect({ pglite }) });
  try {
    // As openDatabase does on PGlite: the extension, then the migrations.
    await sql`create extension if not exists vector`.execute(db);
    await migrateToLatest(db, { hasVector: true });
    await trimForTests(pglite);
    return withoutUnwrittenWal(await pglite.dumpDataDir('none'));
  } finally {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  }
}

/**
 * Less for every copy to unpack and start: a test's database is tiny, so 16 MB of shared buffers rather than
 * initdb's 128 MB (PostgreSQL sets all of them up at each start), and neither template database (15 of the
 * image's 42 MB; nothing on PGlite creates a database). A start from the image then costs 0.3 CPU-seconds
 * instead of 0.5 — and the suite starts hundreds. The schema and the data are the migrations' own.
 */
async function trimForTests(pglite: PGlite): Promise<void> {
  await pglite.exec(`alter system set shared_buffers = '16MB'`);
  await pglite.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
  await pglite.exec('drop database template0');
  await pglite.exec('drop database template1');
  await pglite.exec('checkpoint');
}

/**
 * The image with its WAL segment cut after the last page written (and one blank page): a segment is 16 MB
 * of which the migrations write 10, and each start copies the whole image four times (Blob, untar, the
 * in-memory file system). PostgreSQL reads the end of a segment's file as the end of its WAL and writes
 * past it as it goes on. Unpacked and packed again with tar, as seedDataFolder unpacks it.
 */
async function withoutUnwrittenWal(image: Blob): Promise<Blob> {
  const bytes = await image.arrayBuffer();
  const dir = mkdtempSync(join(tmpdir(), 'palkit-pglite-image-'));
  try {
    const tar = join(dir, 'image.tar');
    const root = join(dir, 'data');
    mkdirSync(root);
    writeFileSync(tar, Buffer.from(bytes));
    execFileSync('tar', ['-xf', tar, '-C', root], { stdio: 'ignore' });
    const wal = join(root, 'pg_wal');
    for (const name of readdirSync(wal).filter((n) => /^[0-9A-F]{24}$/.test(n))) {
      const segment = readFileSync(join(wal, name));
      let pages = Math.ceil(segment.length / WAL_PAGE);
      while (pages > 0 && segment.subarray((pages - 1) * WAL_PAGE, pages * WAL_PAGE).every((b) => b === 0)) pages--;
      truncateSync(join(wal, name), Math.min(segment.length, (pages + 1) * WAL_PAGE));
    }
    // Members named from the data folder's root (/PG_VERSION, /base/…), as PGlite's own dump names them.
    const members = readdirSync(root).map((n) => `./${n}`);
    execFileSync('tar', ['-P', '--format=ustar', '--owner=0', '--group=0', '--transform=s,^\\./,/,', '-cf', tar, ...members], {
      cwd: root,
    });
    return new Blob([readFileSync(tar)], { type: 'application/x-tar' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const WAL_PAGE = 8192;
