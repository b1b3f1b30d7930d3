// Uploads expire: each is kept for its lifetime (PALKIT_UPLOAD_LIFETIME_SECONDS, a day by default) on the
// service's clock, then the sweep removes it with its bytes (a file under PGlite, bytea on PostgreSQL), in
// bounded batches, never while a face still training names it. On the test's clock (ManualClock.advance).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../helpers/clock.js';
import { portraitPhoto } from '../../../helpers/face-clips.js';
import { KEY, onPostgres, startListeningService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { UPLOAD_SWEEP, sweepExpiredUploads } from '../../../../src/server/resources/uploads/expiry.js';

const DAY_MS = 86_400_000;
const photo = portraitPhoto('png');

async function upload(t: TestService): Promise<{ upload_id: string; url: string; expires_at: string }> {
  const response = await fetch(`${t.url}/v2/uploads`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'image/png' },
    body: photo as Uint8Array<ArrayBuffer>,
  });
  assert.equal(response.status, 200);
  return (await response.json()) as { upload_id: string; url: string; expires_at: string };
}

/** Whether the upload is still there: its row, its file (PGlite), and served at its URL; all three or none. */
async function kept(t: TestService, id: string): Promise<boolean | 'partly'> {
  const row = await t.service.deps.db.selectFrom('media').select('media_id').where('media_id', '=', id).executeTakeFirst();
  const folder = t.service.deps.media.folder;
  const file = folder ? existsSync(join(folder, id)) : Boolean(row);
  // An upload is served to its owner's key alone (media/access.ts).
  const served = await fetch(`${t.url}/media/${id}`, { headers: { 'x-api-key': KEY } });
  await served.body?.cancel();
  const there = [Boolean(row), file, served.status === 200];
  return there.every(Boolean) ? true : there.some(Boolean) ? 'partly' : false;
}

/**
 * Waits for the service's sweep to remove the upload whole (row, file and URL). A sweep never overlaps the one
 * before, and on PostgreSQL the one before may still be at work when the clock reaches the next: each look
 * that finds it kept moves the clock to the next sweep.
 */
async function removed(t: TestService, clock: ManualClock, id: string): Promise<void> {
  await waitFor(
    async () => {
      if ((await kept(t, id)) === false) return true;
      await clock.advance(UPLOAD_SWEEP.everyMs);
      return false;
    },
    { what: `upload ${id} removed whole` },
  );
}

describe(`uploads expire (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  const clock = new ManualClock(Date.parse('2026-11-25T08:00:00Z'));
  let t: TestService;
  before(async () => {
    t = await startListeningService({}, { clock });
  });
  after(() => t.close());

  it('says when an upload expires (a day from the service clock by default), and a sweep removes it with its bytes once it has', async () => {
    const stored = await upload(t);
    const expires = Date.parse(stored.expires_at);
    assert.equal(expires, clock.now().getTime() + DAY_MS);
    const other = await t.service.deps.media.store(t.service.deps.db, {
      ownerId: 1,
      contentType: 'image/jpeg',
      bytes: photo,
      extension: 'jpg',
    });
    // The sweep is called at the times it would run (the service's own, every minute on its clock, is the
    // operator's test below: advancing a day would run every timer of the service on the way).
    assert.equal(await sweepExpiredUploads(t.service.deps, new Date(expires - 1)), 0, 'a sweep a moment before the day is over leaves it');
    assert.equal(await kept(t, stored.upload_id), true, 'kept within its lifetime');
    assert.equal(await sweepExpiredUploads(t.service.deps, new Date(expires)), 1, 'the first sweep past its lifetime removes it');
    assert.equal(await kept(t, stored.upload_id), false, 'row, file and URL gone');
    assert.equal(await kept(t, other.mediaId), true, 'media that is not an upload never expires');
  });

  it('keeps an expired upload a face still trains from, and removes it once that training has ended', async () => {
    const stored = await upload(t);
    const faceId = `face-expiry-${Date.now()}`;
    await t.service.deps.db
      .insertInto('faces')
      .values({
        face_id: faceId,
        owner_id: 1,
        face_name: 'Me',
        train_video_url: stored.url,
        callback_url: null,
        status: 'training',
        error_message: null,
        thumbnail_video_url: null,
        thumbnail_image_url: null,
        model_name: null,
      })
      .execute();
    const later = new Date(Date.parse(stored.expires_at) + 1);
    assert.equal(await sweepExpiredUploads(t.service.deps, later), 0, 'nothing removed while the face trains');
    assert.equal(await kept(t, stored.upload_id), true);
    await t.service.deps.db.updateTable('faces').set({ status: 'completed' }).where('face_id', '=', faceId).execute();
    assert.equal(await sweepExpiredUploads(t.service.deps, later), 1);
    assert.equal(await kept(t, stored.upload_id), false);
  });

  it('removes a backlog in bounded batches, a bounded number per sweep', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await upload(t)).upload_id);
    const later = new Date(clock.now().getTime() + DAY_MS + 1);
    const limits = { batch: 2, batchesPerSweep: 2 };
    assert.equal(await sweepExpiredUploads(t.service.deps, later, limits), 4, 'two batches of two');
    assert.equal((await Promise.all(ids.map((id) => kept(t, id)))).filter((k) => k === true).length, 1, 'the oldest four gone');
    assert.equal(await sweepExpiredUploads(t.service.deps, later, limits), 1, 'the rest at the next sweep');
    assert.equal(await sweepExpiredUploads(t.service.deps, later, limits), 0);
  });
});

describe('an upload lifetime set by the operator', () => {
  const clock = new ManualClock(Date.parse('2026-11-25T08:00:00Z'));
  let t: TestService;
  before(async () => {
    t = await startListeningService({ PALKIT_UPLOAD_LIFETIME_SECONDS: '120' }, { clock });
  });
  after(() => t.close());

  it("expires an upload after PALKIT_UPLOAD_LIFETIME_SECONDS, removed by the service's own sweep on its clock", async () => {
    const stored = await upload(t);
    assert.equal(stored.expires_at, new Date(clock.now().getTime() + 120_000).toISOString());
    await clock.advance(120_000 - UPLOAD_SWEEP.everyMs);
    assert.equal(await kept(t, stored.upload_id), true);
    await clock.advance(UPLOAD_SWEEP.everyMs);
    await removed(t, clock, stored.upload_id);
  });
});
