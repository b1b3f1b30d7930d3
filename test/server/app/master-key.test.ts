// Issue 11, item 9: without PALKIT_SECRET the generated master key is kept apart from the database it
// protects (a 0600 file beside the data), a key older versions kept in the database moves there, and
// the service says where at start-up. An instance started with another secret than its database was
// first started with refuses to start (issue 53), where it would report ready and refuse every visitor.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../../src/server/platform/config.js';
import { signMeetingToken, verifyMeetingToken } from '../../../src/server/providers/conferencing/meeting-token.js';
import { createService, type Service } from '../../../src/server/app/service.js';
import { seedDataFolder } from '../../helpers/pglite-image.js';
import { serviceLogDuring } from '../../helpers/service-log.js';

const dir = mkdtempSync(join(tmpdir(), 'palkit-key-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the service on an embedded database in `dir` and returns it with the log lines it wrote. */
async function start(env: Record<string, string> = {}): Promise<{ service: Service; lines: Array<Record<string, unknown>> }> {
  const config = loadConfig({ PALKIT_DATA: join(dir, 'data'), PALKIT_LOG: 'info', ...env }, 0);
  // A new folder gets the migrated database unpacked (initdb and the migrations are not what is tested here).
  await seedDataFolder(config.dataDir);
  const { result: service, lines } = await serviceLogDuring(() => createService(config, { runJobs: false }));
  return { service, lines };
}

const keyFile = join(dir, 'service.key');
const storedKeys = (service: Service) =>
  service.deps.db.selectFrom('service_settings').select('value').where('name', '=', 'service_secret').execute();

describe('the service master key', () => {
  it('is generated into a 0600 file beside the data, not into the database, and says so', async () => {
    const { service, lines } = await start();
    try {
      assert.equal(statSync(keyFile).mode & 0o777, 0o600);
      assert.ok(readFileSync(keyFile, 'utf8').trim().length >= 43);
      assert.deepEqual(await storedKeys(service), []);
      const said = lines.find((l) => String(l.msg).startsWith('service secret: kept in a file'));
      assert.ok(said, `a start-up line names the file: ${JSON.stringify(lines)}`);
      assert.equal(said.file, keyFile);
      assert.ok(!JSON.stringify(lines).includes(readFileSync(keyFile, 'utf8').trim()), 'the key itself is never logged');
    } finally {
      await service.close();
    }
  });

  it('keeps signing with the same key after a restart', async () => {
    const first = await start();
    const token = signMeetingToken(first.service.deps.secrets, 'ckeep1', new Date(Date.now() + 60_000));
    const sealed = first.service.deps.secrets.encrypt('connector token');
    await first.service.close();
    const second = await start();
    try {
      assert.equal(verifyMeetingToken(second.service.deps.secrets, 'ckeep1', token, new Date()), 'visitor');
      assert.equal(second.service.deps.secrets.decrypt(sealed), 'connector token');
    } finally {
      await second.service.close();
    }
  });

  it('moves a key that an older version kept in the database into the file', async () => {
    const first = await start();
    await first.service.deps.db
      .insertInto('service_settings')
      .values({ name: 'service_secret', value: 'legacy-key-from-the-database-0123456789abcdef' })
      .execute();
    // An older version's database: its key in a row, and no fingerprint of it yet.
    await first.service.deps.db.deleteFrom('service_settings').where('name', '=', 'service_secret_fingerprint').execute();
    await first.service.close();
    unlinkSync(keyFile);
    const second = await start();
    try {
      assert.equal(readFileSync(keyFile, 'utf8').trim(), 'legacy-key-from-the-database-0123456789abcdef');
      assert.deepEqual(await storedKeys(second.service), [], 'gone from the database');
      assert.ok(second.lines.some((l) => l.msg === 'service secret: moved out of the database'));
    } finally {
      await second.service.close();
    }
  });

  it('uses PALKIT_SECRET when it is set, and writes no file', async () => {
    const elsewhere = join(dir, 'unused.key');
    const { service, lines } = await start({
      PALKIT_DATA: join(dir, 'data-env'),
      PALKIT_SECRET: 'operator-provided-secret',
      PALKIT_SECRET_FILE: elsewhere,
    });
    try {
      assert.ok(lines.some((l) => l.msg === 'service secret: from PALKIT_SECRET'));
      assert.throws(() => statSync(elsewhere));
    } finally {
      await service.close();
    }
  });

  it('refuses to start when the file and the database disagree', async () => {
    writeFileSync(keyFile, 'some-other-key\n', { mode: 0o600 });
    const first = await start({ PALKIT_DATA: join(dir, 'data-disagree'), PALKIT_SECRET: 'x' });
    await first.service.deps.db.insertInto('service_settings').values({ name: 'service_secret', value: 'the-database-key' }).execute();
    await first.service.close();
    await assert.rejects(start({ PALKIT_DATA: join(dir, 'data-disagree') }), /differs from the one in the database/);
  });

  it('refuses to start with another secret than its database was first started with, naming no secret', async () => {
    const data = join(dir, 'data-fingerprint');
    const first = await start({ PALKIT_DATA: data, PALKIT_SECRET: 'the-first-secret-of-this-database' });
    await first.service.close();
    const refused = await start({ PALKIT_DATA: data, PALKIT_SECRET: 'a-second-instance-misconfigured' }).then(
      () => assert.fail('a second secret must not start'),
      (error: Error) => error,
    );
    assert.equal(refused.name, 'SecretMismatchError');
    assert.match(refused.message, /differs from the one this database was first started with .*same PALKIT_SECRET/);
    for (const secret of ['the-first-secret-of-this-database', 'a-second-instance-misconfigured'])
      assert.ok(!refused.message.includes(secret), 'no secret in the message');
    const again = await start({ PALKIT_DATA: data, PALKIT_SECRET: 'the-first-secret-of-this-database' });
    await again.service.close();
  });
});
