// The suite's services on PGlite start from one migrated image (test/helpers/pglite-image.ts): each copy
// must be the database the migrations make, and a copy of its own — what one test writes, no other sees.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrations } from '../../../src/server/platform/db/migrations/index.js';
import { onPostgres, startTestService, type TestService } from '../../helpers/service.js';

describe('services started from the migrated PGlite image', { skip: onPostgres && 'PGlite only' }, () => {
  let one: TestService;
  let two: TestService;
  before(async () => {
    [one, two] = await Promise.all([startTestService(), startTestService()]);
  });
  after(() => Promise.all([one?.close(), two?.close()]));

  it('hold every listed migration, applied', async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(one.service.deps.db);
    assert.deepEqual(
      rows.map((r) => r.name),
      Object.keys(migrations).sort(),
    );
  });

  it('are trimmed for tests: 16 MB of shared buffers and no template databases, cheaper to unpack and start', async () => {
    const { rows } = await sql<{
      buffers: string;
      databases: string[];
    }>`select current_setting('shared_buffers') as buffers, array(select datname::text from pg_database order by datname) as databases`.execute(
      one.service.deps.db,
    );
    assert.deepEqual(rows, [{ buffers: '16MB', databases: ['postgres'] }]);
  });

  it('are copies of their own: a store made in one is not in the other', async () => {
    const made = await one.api('POST', '/v2/memory-stores', { name: 'only in one' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const listed = async (t: TestService) => JSON.stringify((await t.api('GET', '/v2/memory-stores')).body);
    assert.match(await listed(one), /only in one/);
    assert.doesNotMatch(await listed(two), /only in one/);
  });
});
