// Media bytes outside the embedded database (issue 34, item 10): on PGlite a stored file's bytes go to a
// file under the data folder's `media` folder (0700, files 0600), written under a temporary name and
// renamed before its row; the row keeps its content type and the file's name, never the bytes (PGlite
// writes them on the service's only thread). Deleting media deletes its file once the deletion commits;
// a restart serves what was stored and removes what a crash left (temporary files, files without a row);
// rows from before, bytes in the row, are still served. PostgreSQL keeps the bytes in the row.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { onPostgres, startListeningService, startTestService, type TestService } from '../../../helpers/service.js';
import { sampleFaceJpg, waitForFinished } from '../../../helpers/media-gen.js';

const scratch = mkdtempSync(join(tmpdir(), 'palkit-media-files-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function upload(t: TestService, bytes: Uint8Array): Promise<{ upload_id: string; url: string }> {
  const response = await fetch(`${t.url}/v2/uploads`, {
    method: 'POST',
    headers: { 'content-type': 'image/jpeg', 'x-api-key': 'test-key-owner-1' },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  assert.equal(response.status, 200);
  return (await response.json()) as { upload_id: string; url: string };
}

async function served(
  t: TestService,
  mediaId: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  // With the owner's key: an upload is served to its owner alone (media/access.ts).
  const response = await fetch(`${t.url}/media/${mediaId}`, { headers: { 'x-api-key': 'test-key-owner-1', ...headers } });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

const mode = (path: string) => lstatSync(path).mode & 0o777;

describe('media on PGlite with a data folder', { skip: onPostgres && 'files are how PGlite keeps media' }, () => {
  const data = join(scratch, 'data');
  const folder = join(data, 'media');
  const jpg = sampleFaceJpg();

  it('are files 0600 in a 0700 folder, the row keeping no bytes, served whole and by range', async () => {
    const t = await startListeningService({ PALKIT_DATA: data });
    try {
      const { upload_id } = await upload(t, jpg);
      assert.equal(mode(folder), 0o700);
      assert.deepEqual(readdirSync(folder), [upload_id]);
      assert.equal(mode(join(folder, upload_id)), 0o600);
      const row = await t.service.deps.db.selectFrom('media').selectAll().where('media_id', '=', upload_id).executeTakeFirstOrThrow();
      assert.equal(row.bytes, null, 'the bytes are not in the database');
      assert.equal(row.file, upload_id);
      assert.equal(Number(row.size), jpg.length);
      const whole = await served(t, upload_id);
      assert.equal(whole.status, 200);
      assert.equal(whole.headers.get('content-type'), 'image/jpeg');
      assert.ok(whole.bytes.equals(jpg));
      const part = await served(t, upload_id, { range: 'bytes=10-19' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 10-19/${jpg.length}`);
      assert.ok(part.bytes.equals(jpg.subarray(10, 20)));
      assert.equal((await served(t, upload_id, { range: `bytes=${jpg.length}-` })).status, 416);
    } finally {
      await t.close();
    }
  });

  it('are deleted with their row once the deletion commits, and kept when it rolls back', async () => {
    const t = await startListeningService({ PALKIT_DATA: data });
    try {
      const { db, media } = t.service.deps;
      const kept = await upload(t, jpg);
      const rolledBack = await db
        .transaction()
        .execute(async (trx) => {
          await media.remove(trx, [kept.upload_id]);
          throw new Error('rolled back');
        })
        .catch((error: Error) => error.message);
      assert.equal(rolledBack, 'rolled back');
      assert.ok(existsSync(join(folder, kept.upload_id)), 'a rolled-back deletion keeps the file');
      assert.equal((await served(t, kept.upload_id)).status, 200);

      // Through the API: a speech item's audio goes with the item.
      const created = await t.api('POST', '/v2/speech', { script: 'Short.' });
      assert.equal(created.status, 200);
      const item = await waitForFinished(t, `/v2/speech/${created.body.speech_id}`);
      assert.equal(item.status, 'ready', item.error_details);
      const audio = item.audio_url as string;
      const audioId = audio.slice(audio.lastIndexOf('/') + 1);
      assert.ok(existsSync(join(folder, audioId)));
      assert.equal((await served(t, audioId)).status, 200, 'served once, its row is remembered');
      assert.equal((await t.api('DELETE', `/v2/speech/${created.body.speech_id}`)).status, 200);
      assert.ok(!existsSync(join(folder, audioId)), 'the audio file went with the item');
      assert.equal((await served(t, audioId)).status, 404);
    } finally {
      await t.close();
    }
  });

  it('are looked up in the database once, however many visitors fetch them', async () => {
    const t = await startListeningService({ PALKIT_DATA: data });
    try {
      const { upload_id } = await upload(t, jpg);
      const db = t.service.deps.db;
      const selectFrom = db.selectFrom.bind(db);
      let lookups = 0;
      db.selectFrom = ((from: Parameters<typeof selectFrom>[0]) => {
        if (from === 'media') lookups++;
        return selectFrom(from);
      }) as typeof db.selectFrom;
      const fetched = await Promise.all(Array.from({ length: 20 }, () => served(t, upload_id)));
      assert.ok(fetched.every((f) => f.status === 200 && f.bytes.equals(jpg)));
      const before = lookups;
      await Promise.all(Array.from({ length: 20 }, () => served(t, upload_id)));
      assert.equal(lookups, before, 'a file already served is not looked up again');
    } finally {
      await t.close();
    }
  });

  it('small ones are read from disk once and then served from memory, until removed', async () => {
    const t = await startListeningService({ PALKIT_DATA: data });
    try {
      const { db, media } = t.service.deps;
      const { upload_id } = await upload(t, jpg);
      assert.ok((await served(t, upload_id)).bytes.equals(jpg));
      // The file gone from under the store: only bytes held in memory can still be served.
      rmSync(join(folder, upload_id));
      const again = await Promise.all(Array.from({ length: 20 }, () => served(t, upload_id)));
      assert.ok(
        again.every((f) => f.status === 200 && f.bytes.equals(jpg)),
        'served from memory',
      );
      const part = await served(t, upload_id, { range: 'bytes=10-19' });
      assert.equal(part.status, 206);
      assert.ok(part.bytes.equals(jpg.subarray(10, 20)), 'a range is cut from the held bytes');
      await db.transaction().execute((trx) => media.remove(trx, [upload_id]));
      assert.equal((await served(t, upload_id)).status, 404, 'a removed file is not served from memory');
    } finally {
      await t.close();
    }
  });

  it('are served after a restart, and what a crash left is removed at start', async () => {
    let id: string;
    const first = await startListeningService({ PALKIT_DATA: data });
    try {
      id = (await upload(first, jpg)).upload_id;
    } finally {
      await first.close();
    }
    // What a crash leaves: a file half written under its temporary name, a renamed file whose row never committed.
    writeFileSync(join(folder, 'mdhalf.jpg.tmpabc.tmp'), jpg.subarray(0, 100));
    writeFileSync(join(folder, 'mdorphan.jpg'), jpg);
    const second = await startListeningService({ PALKIT_DATA: data });
    try {
      const again = await served(second, id);
      assert.equal(again.status, 200);
      assert.ok(again.bytes.equals(jpg));
      assert.ok(!existsSync(join(folder, 'mdhalf.jpg.tmpabc.tmp')), 'the temporary file is removed');
      assert.ok(!existsSync(join(folder, 'mdorphan.jpg')), 'the file without a row is removed');
      assert.ok(existsSync(join(folder, id)));
    } finally {
      await second.close();
    }
  });

  it('stored before media files (bytes in the row) are still served and read', async () => {
    const t = await startListeningService({ PALKIT_DATA: data });
    try {
      const { db, media } = t.service.deps;
      await db
        .insertInto('media')
        .values({ media_id: 'mdoldrowxxxxxxxxxxxxxxxxxx.jpg', owner_id: 1, content_type: 'image/jpeg', bytes: jpg })
        .execute();
      const old = await served(t, 'mdoldrowxxxxxxxxxxxxxxxxxx.jpg');
      assert.equal(old.status, 200);
      assert.ok(old.bytes.equals(jpg));
      const read = await media.get(db, 'mdoldrowxxxxxxxxxxxxxxxxxx.jpg', 1);
      assert.ok(read && Buffer.from(await read.bytes()).equals(jpg));
      assert.equal(await media.get(db, 'mdoldrowxxxxxxxxxxxxxxxxxx.jpg', 2), undefined, "another owner's media is not read as theirs");
    } finally {
      await t.close();
    }
  });
});

describe('media of an in-memory service', { skip: onPostgres && 'files are how PGlite keeps media' }, () => {
  it('are files in a private folder of their own, removed when the service closes', async () => {
    const t = await startListeningService({ PALKIT_DATA: 'memory' });
    const folder = t.service.deps.media.folder!;
    try {
      const { upload_id } = await upload(t, sampleFaceJpg());
      assert.equal(mode(folder), 0o700);
      assert.equal(mode(join(folder, '..')), 0o700);
      assert.equal(mode(join(folder, upload_id)), 0o600);
      const row = await t.service.deps.db.selectFrom('media').select('bytes').where('media_id', '=', upload_id).executeTakeFirstOrThrow();
      assert.equal(row.bytes, null);
    } finally {
      await t.close();
    }
    assert.ok(!existsSync(folder), 'the folder went with the service');
  });

  it('of a service that ended without closing are removed as the next one starts', async () => {
    const first = await startTestService({ PALKIT_DATA: 'memory' });
    const base = dirname(first.service.deps.media.folder!);
    await first.close();
    const ended = spawnSync(process.execPath, ['-e', '']).pid!; // a process that has exited
    const running = spawn('sleep', ['60']);
    const plant = (name: string) => {
      mkdirSync(join(base, name), { mode: 0o700 });
      writeFileSync(join(base, name, 'md1.jpg'), 'bytes');
      return join(base, name);
    };
    const crashed = plant(`service-${ended}-crashed`);
    const live = plant(`service-${running.pid}-live`);
    const oldNaming = plant('service-Ab12Cd');
    const t = await startTestService({ PALKIT_DATA: 'memory' });
    try {
      assert.ok(!existsSync(crashed), 'the folder of a service whose process is gone is removed');
      assert.ok(existsSync(live), 'the folder of a running process is kept');
      assert.ok(existsSync(oldNaming), 'a folder not named after a process is left alone');
      assert.match(basename(t.service.deps.media.folder!), new RegExp(`^service-${process.pid}-`));
    } finally {
      await t.close();
      running.kill();
      rmSync(live, { recursive: true, force: true });
      rmSync(oldNaming, { recursive: true, force: true });
    }
  });
});

describe('media on PostgreSQL', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  it('are kept in the row, so every instance on the database serves them', async () => {
    const a = await startListeningService({}, { schema: 't_media_shared' });
    const b = await startListeningService({}, { schema: 't_media_shared' });
    try {
      assert.equal(a.service.deps.media.folder, null);
      const { upload_id } = await upload(a, sampleFaceJpg());
      const other = await served(b, upload_id);
      assert.equal(other.status, 200);
      assert.ok(other.bytes.equals(sampleFaceJpg()));
      await a.service.deps.db.deleteFrom('media').where('media_id', '=', upload_id).execute();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
