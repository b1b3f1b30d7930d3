// What the service keeps on disk is its user's alone (issue 34, items 8 and 13): the embedded database's
// folder 0700 and its files 0600 (also those of an older, open folder), recordings in a checked private
// folder that a link planted in the shared temp folder cannot redirect, and recorded files 0600.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../../../src/server/platform/config.js';
import { createService } from '../../../../src/server/app/service.js';
import { CallRecorder } from '../../../../src/server/live/recording/call-recorder.js';
import { systemClock } from '../../../../src/server/platform/time.js';
import { defaultStorage } from '../../../../src/server/providers/storage/default-storage.js';
import { migratedPgliteImage } from '../../../helpers/pglite-image.js';

const scratch = mkdtempSync(join(tmpdir(), 'palkit-private-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Every entry under `dir` (itself included) that group or others can reach, with its mode. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if ((stat.mode & 0o077) !== 0) found.push(`${relative(dir, path) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return found;
}

describe('the data folder', () => {
  it('is 0700 with files 0600, an older open folder included', async () => {
    const data = join(scratch, 'data');
    // A folder left by an older version: open to everyone, with a file of its own.
    mkdirSync(join(data, 'base'), { recursive: true, mode: 0o755 });
    chmodSync(data, 0o755);
    writeFileSync(join(data, 'base', 'old'), 'transcript', { mode: 0o644 });
    chmodSync(join(data, 'base', 'old'), 0o666);
    const service = await createService(loadConfig({ PALKIT_DATA: data, PALKIT_LOG: 'silent' }, 0), { runJobs: false });
    try {
      const open = openToOthers(data);
      assert.deepEqual(open.slice(0, 5), [], `${open.length} entries open to others`);
      assert.ok(readdirSync(data).length > 3, 'the database is in the folder');
    } finally {
      await service.close();
    }
  });
});

describe('recordings', () => {
  it('of an in-memory service go to a checked private folder, not through a planted link', async () => {
    const shared = join(scratch, 'shared-tmp');
    const attacker = join(scratch, 'attacker');
    mkdirSync(shared, { recursive: true });
    mkdirSync(attacker, { mode: 0o777 });
    // Links planted at the predictable places of the shared temp folder.
    const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
    symlinkSync(attacker, join(shared, 'palkit-recordings'));
    symlinkSync(attacker, join(shared, `palkit-${uid}`));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = shared;
    try {
      const service = await createService(loadConfig({ PALKIT_DATA: 'memory', PALKIT_LOG: 'silent' }, 0), {
        runJobs: false,
        pgliteImage: await migratedPgliteImage(), // the migrated database, not initdb again
      });
      const dir = service.deps.config.recording.dir;
      await service.close();
      assert.ok(!realpathSync(dir).startsWith(realpathSync(attacker)), `recordings went to the planted folder: ${dir}`);
      // Every folder from the temp folder down is a real folder, private to this user.
      for (let path = dir; path.startsWith(shared + '/'); path = join(path, '..')) {
        const stat = lstatSync(path);
        assert.ok(stat.isDirectory() && !stat.isSymbolicLink(), `${path} is a folder`);
        assert.equal(stat.mode & 0o077, 0, `${path} is private (${(stat.mode & 0o777).toString(8)})`);
      }
      assert.deepEqual(readdirSync(attacker), []);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });

  it('are written 0600: the live file and the stored WAV', async () => {
    // A usual umask (the data folder's test above narrowed this process's).
    const umask = process.umask(0o022);
    after(() => process.umask(umask));
    const dir = join(scratch, 'recordings');
    const recorder = await CallRecorder.start(join(dir, 'live', 'rec_1.pcm'), 10, { ...systemClock, now: () => new Date(0) });
    await recorder.stop(0);
    await defaultStorage({ dir, s3: undefined } as Parameters<typeof defaultStorage>[0]).put(
      '1/c/rec_1.wav',
      Buffer.from('RIFF'),
      'audio/wav',
    );
    assert.deepEqual(openToOthers(dir), []);
  });
});
