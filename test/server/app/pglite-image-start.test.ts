// PALKIT_PGLITE_IMAGE: an in-memory database that starts from an image of a migrated data directory (what the
// tests' service processes do, test/helpers/process.ts), and a clear start-up error for a misuse of it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../../src/server/platform/config.js';
import { createService } from '../../../src/server/app/service.js';
import { migratedPgliteImageFile } from '../../helpers/pglite-image.js';

test('an in-memory service starts from the image PALKIT_PGLITE_IMAGE names', async () => {
  const config = loadConfig({ PALKIT_DATA: 'memory', PALKIT_LOG: 'error', PALKIT_PGLITE_IMAGE: await migratedPgliteImageFile() }, 0);
  const service = await createService(config, { runJobs: false });
  try {
    // The tests' image is trimmed to 16 MB of shared buffers (initdb's default is 128 MB): this database is the image's.
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(service.deps.db);
    assert.equal(rows[0]?.shared_buffers, '16MB');
    // And the migrations found everything applied: the API answers.
    const listed = await service.app.request('/v2/pals', { headers: { 'x-api-key': 'none' } });
    assert.equal(listed.status, 401);
  } finally {
    await service.close();
  }
});

test('PALKIT_PGLITE_IMAGE with a database folder or PostgreSQL is refused at start, naming the variable', () => {
  for (const env of [{ PALKIT_DATA: './.palkit/data' }, { PALKIT_DATA: 'memory', DATABASE_URL: 'postgres://localhost/x' }]) {
    assert.throws(
      () => loadConfig({ ...env, PALKIT_PGLITE_IMAGE: '/tmp/image.tar' }, 0),
      (error: unknown) => error instanceof ConfigError && /PALKIT_PGLITE_IMAGE applies only to an in-memory database/.test(error.message),
    );
  }
});

test('an image file that cannot be read is a start-up error naming it, not a crash inside PGlite', async () => {
  const config = loadConfig({ PALKIT_DATA: 'memory', PALKIT_LOG: 'error', PALKIT_PGLITE_IMAGE: '/nonexistent/palkit-image.tar' }, 0);
  await assert.rejects(
    createService(config, { runJobs: false }),
    (error: unknown) =>
      error instanceof ConfigError && /PALKIT_PGLITE_IMAGE: cannot read \/nonexistent\/palkit-image.tar \(ENOENT\)/.test(error.message),
  );
});
