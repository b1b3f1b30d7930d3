// The harness's databases (test/helpers/pglite-image.ts, pg-template.ts): a test service starts on a
// database migrated before it started (a copy of the kept PGlite image, unpacked into a data folder of
// its own, or on PostgreSQL a database cloned from the migrated template), so its migrator finds every
// migration applied and runs none; on PostgreSQL each service has a database of its own, dropped when it
// closes.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { onPostgres, startListeningService, type TestService } from '../../helpers/service.js';

const MIGRATIONS = readdirSync(new URL('../../../src/server/platform/db/migrations/', import.meta.url))
  .filter((f) => /^\d+_.*\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

/** Every migration is recorded, each run before `before`. */
async function assertMigratedBefore(t: TestService, before: Date): Promise<void> {
  const { rows } = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name`.execute(
    t.service.deps.db,
  );
  assert.deepEqual(
    rows.map((r) => r.name),
    MIGRATIONS,
  );
  for (const row of rows)
    assert.ok(
      new Date(row.timestamp) < before,
      `${row.name} ran at ${row.timestamp}, not before the service started at ${before.toISOString()}`,
    );
}

describe("the test harness's databases", () => {
  it('start migrated: the service finds every migration applied and runs none', async () => {
    await (await startListeningService()).close(); // the image or template made, if this process is the first
    const started = new Date();
    const t = await startListeningService();
    try {
      await assertMigratedBefore(t, started);
    } finally {
      await t.close();
    }
  });

  it('a data folder of its own starts migrated too', { skip: onPostgres && 'PGlite only' }, async () => {
    const data = mkdtempSync(join(tmpdir(), 'palkit-harness-'));
    const started = new Date();
    const t = await startListeningService({ PALKIT_DATA: join(data, 'db') });
    try {
      await assertMigratedBefore(t, started);
    } finally {
      await t.close();
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL, one database per service, dropped when it closes', { skip: !onPostgres && 'PostgreSQL only' }, async () => {
    const base = process.env.PALKIT_TEST_DATABASE_URL!;
    const a = await startListeningService();
    const b = await startListeningService();
    const nameOf = async (t: TestService) =>
      (await sql<{ name: string }>`select current_database() as name`.execute(t.service.deps.db)).rows[0]!.name;
    const names = [await nameOf(a), await nameOf(b)];
    await Promise.all([a.close(), b.close()]);
    assert.notEqual(names[0], names[1]);
    assert.ok(!names.includes(decodeURIComponent(new URL(base).pathname.slice(1))), 'not the database the variable names');
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      const { rows } = await client.query('select datname from pg_database where datname = any($1)', [names]);
      assert.deepEqual(rows, [], 'both dropped');
    } finally {
      await client.end();
    }
  });
});
