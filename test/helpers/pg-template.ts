// The PostgreSQL leg's databases: each test service gets a database of its own, cloned with
// CREATE DATABASE … TEMPLATE from one migrated template, instead of a fresh schema it would run the 26
// migrations into (a second or more per service start on a loaded machine, hundreds of starts in the
// leg). The service's own migrator still runs at start and finds them all applied. A database is dropped
// when the last service using it closes; dropping a database, unlike a schema, never disturbs the
// catalogue reads of the other test files running beside it.
//
// The template is named after the migrations' contents, so it is made once per PostgreSQL server and
// migrations (the first test process to need it makes it under an advisory lock; the others wait) and a
// changed migration makes a new one.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/server/platform/db/database.js';
import { migrationsHash } from './migrations-hash.js';

/** The URL of another database on the same server. */
function urlOf(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

function baseName(base: string): string {
  const name = decodeURIComponent(new URL(base).pathname.slice(1)) || 'postgres';
  // Leave room for the suffixes in PostgreSQL's 63 characters.
  return name
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase()
    .slice(0, 30);
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

let template: Promise<string> | undefined;

/** The migrated template's name, made on first use if this server has none for these migrations. */
function migratedTemplate(base: string): Promise<string> {
  template ??= (async () => {
    const name = `${baseName(base)}_tpl_${migrationsHash()}`;
    await withClient(base, async (client) => {
      // One test process makes it; those starting beside it wait here, then find it made.
      await client.query('select pg_advisory_lock(hashtext($1))', [name]);
      try {
        const found = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (found.rowCount) return;
        // Built under another name and renamed when migrated: a process killed midway leaves no
        // half-migrated template behind under the name others would clone.
        const building = `${name}_building`;
        await client.query(`drop database if exists ${building} with (force)`);
        await client.query(`create database ${building}`);
        const opened = await openDatabase({ databaseUrl: urlOf(base, building) });
        await opened.close();
        await client.query(`alter database ${building} rename to ${name}`);
      } finally {
        await client.query('select pg_advisory_unlock(hashtext($1))', [name]);
      }
    });
    return name;
  })();
  return template;
}

interface Cloned {
  url: Promise<string>;
  users: number;
}

// Databases by the name tests share them under (ServiceOptions.schema), or each service's own.
const cloned = new Map<string, Cloned>();

/**
 * A migrated database for one test service, or the one the services of `shared` use (instances of one
 * test share a database as production's instances do). Call release() when the service has closed.
 */
export function testDatabase(base: string, shared?: string): { url: Promise<string>; release(): Promise<void> } {
  const key = shared ?? randomBytes(6).toString('hex');
  let entry = cloned.get(key);
  if (!entry) {
    const name = `${baseName(base)}_t_${
      shared
        ? `${shared
            .replace(/[^a-z0-9_]/gi, '_')
            .toLowerCase()
            .slice(0, 16)}_${process.pid}`
        : key
    }`;
    const url = (async () => {
      const from = await migratedTemplate(base);
      await withClient(base, (client) => client.query(`create database ${name} template ${from}`));
      return urlOf(base, name);
    })();
    entry = { url, users: 0 };
    cloned.set(key, entry);
  }
  entry.users += 1;
  const held = entry;
  return {
    url: held.url,
    async release() {
      held.users -= 1;
      if (held.users > 0) return;
      cloned.delete(key);
      const url = await held.url.catch(() => undefined);
      if (!url) return;
      const name = decodeURIComponent(new URL(url).pathname.slice(1));
      await withClient(base, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
