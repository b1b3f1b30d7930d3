// A PostgreSQL server of a test's own, in a temporary directory on a free port, for tests that stop and
// restart the database (the shared cluster of the suite serves other test files at the same time).
// Uses the server binaries of the machine (Debian: /usr/lib/postgresql/<version>/bin, or PALKIT_PG_BIN);
// PostgreSQL refuses to run as root, so when the tests do (CI) it runs as the `postgres` user.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './process.js';

const run = promisify(execFile);

export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, loopback only). */
  url: string;
  /** Stops the server (fast shutdown: sessions are ended, as in a restart or a failover). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** One statement as the superuser, on a connection of its own (to the `postgres` database unless told). */
  query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[], database?: string): Promise<R[]>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

/** The directory holding initdb and pg_ctl, or null when this machine has none. */
export function postgresBinaries(): string | null {
  const candidates = process.env.PALKIT_PG_BIN
    ? [process.env.PALKIT_PG_BIN]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : [];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null;
}

/** Why the own server cannot run here (to skip with), or null. */
export function ownPostgresUnavailable(): string | null {
  if (!postgresBinaries()) return 'needs the PostgreSQL server binaries (initdb, pg_ctl; set PALKIT_PG_BIN)';
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
    return 'runs as root without runuser to start PostgreSQL as postgres';
  return null;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const dir = mkdtempSync(join(tmpdir(), 'palkit-pg-'));
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | null = null;
  if (asRoot) {
    const [uid, gid] = await Promise.all(['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())));
    owner = { uid: uid!, gid: gid! };
    chownSync(dir, owner.uid, owner.gid);
  }
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  const data = join(dir, 'data');
  const port = await freePort();
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const pgCtl = (...args: string[]) => as('pg_ctl', ['-D', data, '-w', '-t', '30', ...args]);
  const start = async () => void (await pgCtl('-o', options, '-l', join(dir, 'log'), 'start'));
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    start,
    stop: async () => void (await pgCtl('-m', 'fast', 'stop')),
    async query(text, values, database = 'postgres') {
      const client = new pg.Client({ connectionString: url.replace(/\/postgres$/, `/${database}`), application_name: 'test' });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async destroy() {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
