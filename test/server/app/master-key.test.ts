// Issue 11, item 9: without PALKIT_SECRET the generated master key is kept apart from the database it
// protects (a 0600 file beside the data), a key older versions kept in the database moves there, and
// the service says where at start-up.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../../src/server/platform/config.js';
import { signMeetingToken, verifyMeetingToken } from '../../../src/server/providers/conferencing/meeting-token.js';
import { createService, type Service } from '../../../src/server/app/service.js';

const dir = mkdtempSync(join(tmpdir(), 'palkit-key-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the service on an embedded database in `dir` and returns it with the log lines it wrote. */
async function start(env: Record<string, string> = {}): Promise<{ service: Service; lines: Array<Record<string, unknown>> }> {
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const service = await createService(loadConfig({ PALKIT_DATA: join(dir, 'data'), PALKIT_LOG: 'info', ...env }, 0), { runJobs: false });
    return { service, lines: written.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
  } finally {
    process.stderr.write = write;
  }
}

const keyFile = join(dir, 'service.key');
const storedKeys = (service: Service) => service.deps.db.selectFrom('service_settings').select('value').where('name', '=', 'service_secret').execute();

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
    await first.service.deps.db.insertInto('service_settings').values({ name: 'service_secret', value: 'legacy-key-from-the-database-0123456789abcdef' }).execute();
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
    const { service, lines } = await start({ PALKIT_SECRET: 'operator-provided-secret', PALKIT_SECRET_FILE: elsewhere });
    try {
      assert.ok(lines.some((l) => l.msg === 'service secret: from PALKIT_SECRET'));
      assert.throws(() => statSync(elsewhere));
    } finally {
      await service.close();
    }
  });

  it('refuses to start when the file and the database disagree', async () => {
    writeFileSync(keyFile, 'some-other-key\n', { mode: 0o600 });
    const first = await start({ PALKIT_SECRET: 'x' });
    await first.service.deps.db.insertInto('service_settings').values({ name: 'service_secret', value: 'the-database-key' }).execute();
    await first.service.close();
    await assert.rejects(start(), /differs from the one in the database/);
  });
});
