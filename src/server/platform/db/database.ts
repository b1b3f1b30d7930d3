// Opens the service's database: PGlite (embedded, files under PALKIT_DATA or in memory) by default,
// a real PostgreSQL when DATABASE_URL is set. Same Kysely dialect family, same migrations, same queries.
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { fixDataFolderModes, privateDataFolder } from './private-data.js';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrate.js';
import type { Logger } from '../log.js';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Whether the pgvector extension is available (always on PGlite; only if installed on PostgreSQL). */
  hasVector: boolean;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** PostgreSQL only: create and use this schema (test isolation). */
  schema?: string;
  /** Where a lost connection is reported (PostgreSQL); without it the loss is only seen by the query that meets it. */
  log?: Logger;
  /**
   * PGlite in memory only: start from this image of a data directory (PGlite's dumpDataDir of a migrated
   * database) instead of an empty one. initdb and the migrations cost seconds per instance; the tests
   * start hundreds of instances and give each a copy of one image (test/helpers/pglite-image.ts).
   */
  pgliteImage?: Blob;
}

/**
 * The application_name of the service's PostgreSQL connections, so that an operator (or a test) can
 * find them in pg_stat_activity: the pool's are `palkit`, the instance channel's `palkit/listen` and
 * `palkit/send`. An application_name in DATABASE_URL wins.
 */
export const APPLICATION_NAME = 'palkit';

export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  const opened = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.schema, options.log)
    : await openPglite(options.dataDir ?? 'memory', options.log, options.pgliteImage);
  await migrateToLatest(opened.db, { hasVector: opened.hasVector });
  return opened;
}

async function openPglite(dataDir: string, log: Logger | undefined, image: Blob | undefined): Promise<OpenedDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  if (dataDir !== 'memory') privateDataFolder(dataDir);
  const pglite = await PGlite.create(dataDir === 'memory' ? undefined : dataDir, {
    extensions: { vector },
    ...(image && dataDir === 'memory' ? { loadDataDir: image } : {}),
  });
  // Existing files, and those PGlite just made (0666 whatever the umask).
  if (dataDir !== 'memory') fixDataFolderModes(dataDir, log);
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  await sql`create extension if not exists vector`.execute(db);
  return {
    db,
    kind: 'pglite',
    hasVector: true,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

async function openPostgres(url: string, schema: string | undefined, log: Logger | undefined): Promise<OpenedDatabase> {
  const pg = await import('pg');
  const Pool = pg.default.Pool;
  // Timestamps come back as Date objects from both drivers; bigint counts as numbers.
  pg.default.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new Pool({
    connectionString: url,
    max: 10,
    application_name: APPLICATION_NAME,
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
  });
  // A connection the server drops (terminated, restarted, failed over, idle_session_timeout) emits
  // 'error' on its client; with no listener that is an uncaught exception that ends the process. The
  // pool listens while a client is idle (and removes it), nobody while Kysely holds it: listen on
  // every client for good. The query that meets the loss fails on its own, and the pool opens a new
  // connection for the next one.
  pool.on('connect', (client) => client.on('error', (error) => log?.error('a database connection was lost', { error: error.message })));
  pool.on('error', () => undefined); // the same loss of an idle client, logged by the listener above
  if (schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('invalid schema name');
    await pool.query(`create schema if not exists ${schema}`);
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let hasVector = false;
  try {
    await sql`create extension if not exists vector`.execute(db);
    hasVector = true;
  } catch {
    hasVector = false; // Debian's PostgreSQL has no pgvector package: the portable fallback is used.
  }
  return { db, kind: 'postgres', hasVector, close: () => db.destroy() };
}
