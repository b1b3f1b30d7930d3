import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLocalRenderer } from '../../../../src/server/resources/videos/render/local-renderer.js';
import { locateFfmpeg } from '../../../../src/server/platform/media/ffmpeg.js';
import { probeVideo } from '../../../../src/server/resources/faces/media-tools.js';
import { videoGenerationJob } from '../../../../src/server/resources/videos/generate.js';
import { OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { fetchBytes, insertFace, sampleFaceJpg, signatureIsValid, startReceiver, waitForFinished } from '../../../helpers/media-gen.js';

const VIDEO_FIELDS = [
  'video_id',
  'video_name',
  'status',
  'data',
  'download_url',
  'hosted_url',
  'stream_url',
  'status_details',
  'background_url',
  'background_source_url',
  'still_image_thumbnail_url',
  'gif_thumbnail_url',
  'error_details',
  'created_at',
  'updated_at',
  'generation_progress',
  'face_id',
].sort();
const CALLBACK_FIELDS = [
  'created_at',
  'updated_at',
  'data',
  'download_url',
  'hosted_url',
  'stream_url',
  'generation_progress',
  'face_id',
  'status',
  'status_details',
  'video_id',
  'video_name',
].sort();

describe('videos', () => {
  let t: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let face: string;
  let videoOnlyFace: string;
  let otherFace: string;
  let trainingFace: string;

  before(async () => {
    t = await startListeningService();
    const files: Record<string, [string, Uint8Array]> = {
      '/background.jpg': ['image/jpeg', sampleFaceJpg()],
      '/page.html': ['text/html', Buffer.from('<p>hi</p>')],
    };
    receiver = await startReceiver(files);
    // An HLS playlist served as a video: its segments are addresses of the playlist's choosing.
    files['/playlist.mp4'] = [
      'video/mp4',
      Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n${receiver.url}/segment0.ts\n#EXT-X-ENDLIST\n`),
    ];
    face = await insertFace(t, 1, { video: false });
    videoOnlyFace = await insertFace(t, 1, { image: false });
    otherFace = await insertFace(t, 2);
    trainingFace = await insertFace(t, 1, { status: 'training' });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('generates a real MP4, thumbnails and a hosted page, and calls back signed when ready', async () => {
    const created = await t.api('POST', '/v2/videos', {
      face_id: face,
      script: 'Hi there.',
      video_name: 'Greeting',
      callback_url: `${receiver.url}/ready`,
    });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body).sort(), VIDEO_FIELDS);
    assert.equal(created.body.status, 'generating');
    assert.equal(created.body.generation_progress, '0/4');
    assert.equal(created.body.download_url, null);
    assert.deepEqual(created.body.data, { script: 'Hi there.' });
    assert.equal(created.body.hosted_url, `${t.url}/videos/${created.body.video_id}`);
    assert.ok(created.body.video_id.length >= 20, 'hosted pages are public: ids must be unguessable');

    const video = await waitForFinished(t, `/v2/videos/${created.body.video_id}`);
    assert.equal(video.status, 'ready', video.error_details);
    assert.equal(video.generation_progress, '4/4');
    assert.equal(video.error_details, null);
    assert.equal(video.face_id, face);

    const mp4 = await fetchBytes(video.download_url);
    assert.equal(mp4.status, 200);
    assert.equal(mp4.contentType, 'video/mp4');
    assert.equal(mp4.bytes.subarray(4, 8).toString('latin1'), 'ftyp');
    assert.equal(video.stream_url, video.download_url);
    const ranged = await fetch(video.stream_url, { headers: { range: 'bytes=0-7' } });
    assert.equal(ranged.status, 206);
    const still = await fetchBytes(video.still_image_thumbnail_url);
    assert.equal(still.contentType, 'image/jpeg');
    assert.equal(still.bytes.readUInt16BE(0), 0xffd8);
    const gif = await fetchBytes(video.gif_thumbnail_url);
    assert.equal(gif.contentType, 'image/gif');
    assert.equal(gif.bytes.subarray(0, 4).toString('latin1'), 'GIF8');

    const page = await fetch(video.hosted_url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const html = await page.text();
    assert.ok(html.includes(`src="${video.stream_url}"`));
    assert.ok(html.includes('Greeting'));

    const callback = await receiver.next('/ready');
    assert.ok(await signatureIsValid(t, callback));
    assert.deepEqual(Object.keys(callback.body).sort(), CALLBACK_FIELDS);
    assert.equal(callback.body.status, 'ready');
    assert.equal(callback.body.video_id, video.video_id);
    assert.equal(callback.body.download_url, video.download_url);
    assert.equal(callback.body.generation_progress, '4/4');
    assert.equal(callback.body.face_id, face);
  });

  it('renders a face video under replica_id over a fetched background', async () => {
    const created = await t.api('POST', '/v2/videos', {
      replica_id: videoOnlyFace,
      script: 'Hello.',
      background_url: `${receiver.url}/background.jpg`,
    });
    assert.equal(created.status, 200);
    assert.equal(created.body.face_id, videoOnlyFace);
    assert.equal(created.body.video_name, 'Hello.');
    const video = await waitForFinished(t, `/v2/videos/${created.body.video_id}`);
    assert.equal(video.status, 'ready', video.error_details);
    assert.equal(video.background_url, `${receiver.url}/background.jpg`);
    const mp4 = await fetchBytes(video.download_url);
    const dir = mkdtempSync(join(tmpdir(), 'palkit-test-'));
    try {
      const file = join(dir, 'v.mp4');
      writeFileSync(file, mp4.bytes);
      const { width, height } = await probeVideo(locateFfmpeg(undefined), file);
      assert.deepEqual([width, height], [640, 360], 'the background frame sets the size');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a background that is a playlist pointing elsewhere is not followed: ffmpeg opens no address it names', async () => {
    const created = await t.api('POST', '/v2/videos', { face_id: face, script: 'Hi.', background_url: `${receiver.url}/playlist.mp4` });
    assert.equal(created.status, 200);
    const video = await waitForFinished(t, `/v2/videos/${created.body.video_id}`);
    assert.equal(video.status, 'error', 'a playlist is not a video');
    assert.deepEqual(
      receiver.fetched.filter((p) => p.startsWith('/segment')),
      [],
      'no segment was fetched',
    );
  });

  it('ends in error with error_details and a signed error callback when the background cannot be used', async () => {
    const missing = await t.api('POST', '/v2/videos', {
      face_id: face,
      script: 'Hi.',
      background_url: `${receiver.url}/nope.jpg`,
      callback_url: `${receiver.url}/error`,
    });
    const video = await waitForFinished(t, `/v2/videos/${missing.body.video_id}`);
    assert.equal(video.status, 'error');
    assert.match(video.error_details, /background .*404/);
    assert.equal(video.download_url, null);
    assert.equal(video.still_image_thumbnail_url, null);
    const callback = await receiver.next('/error');
    assert.ok(await signatureIsValid(t, callback));
    assert.deepEqual(Object.keys(callback.body).sort(), [...CALLBACK_FIELDS, 'error_details'].sort());
    assert.equal(callback.body.status, 'error');
    assert.equal(callback.body.download_url, null);
    assert.equal(callback.body.stream_url, null);
    assert.equal(callback.body.error_details, video.error_details);

    // Credentials in the address (userinfo, a signed link's token) are not repeated in error_details.
    const withCredentials =
      receiver.url.replace('http://', 'http://agent:hunter2@') + '/nope.jpg?X-Amz-Signature=s1gn3d&token=t0ps3cret&size=2';
    const secretive = await t.api('POST', '/v2/videos', { face_id: face, script: 'Hi.', background_url: withCredentials });
    assert.equal(secretive.status, 200, JSON.stringify(secretive.body));
    const scrubbed = await waitForFinished(t, `/v2/videos/${secretive.body.video_id}`);
    assert.equal(scrubbed.status, 'error');
    assert.match(scrubbed.error_details, /\[redacted\]/);
    assert.doesNotMatch(scrubbed.error_details, /hunter2|s1gn3d|t0ps3cret/);

    const page = await t.api('POST', '/v2/videos', { face_id: face, script: 'Hi.', background_source_url: `${receiver.url}/page.html` });
    const failed = await waitForFinished(t, `/v2/videos/${page.body.video_id}`);
    assert.equal(failed.status, 'error');
    assert.match(failed.error_details, /not an image or a video/);
    assert.equal(failed.background_source_url, `${receiver.url}/page.html`);
  });

  it('rejects bad input with 400 and names the problem', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ script: 'Hi' }, /face_id/],
      [{ face_id: 'rnothere', script: 'Hi' }, /face_id.*does not exist/],
      [{ face_id: otherFace, script: 'Hi' }, /does not exist/],
      [{ face_id: trainingFace, script: 'Hi' }, /not ready/],
      [{ face_id: face }, /script/],
      [{ face_id: face, script: '   ' }, /script/],
      [{ face_id: face, script: 'x'.repeat(5001) }, /5000/],
      [{ face_id: face, script: 42 }, /script/],
      [{ face_id: face, script: 'Hi', callback_url: 'ftp://example.com/x' }, /callback_url/],
      [{ face_id: face, script: 'Hi', background_url: 'not a url' }, /background_url/],
      [
        { face_id: face, script: 'Hi', background_url: 'https://a.example/x.jpg', background_source_url: 'https://a.example/y.jpg' },
        /background_source_url/,
      ],
      [{ face_id: face, replica_id: otherFace, script: 'Hi' }, /replica_id/],
    ];
    for (const [body, pattern] of cases) {
      const r = await t.api('POST', '/v2/videos', body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(r.body.error, pattern);
    }
    const exact = await t.api('POST', '/v2/videos', { face_id: face, script: 'x'.repeat(5000) }, { key: null });
    assert.equal(exact.status, 401);
    assert.equal(typeof exact.body.message, 'string');
  });

  it("lists in pages (limit, page), renames, hides other owners' videos and deletes with the files", async () => {
    const { db } = t.service.deps;
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 12; i++) {
      await db
        .insertInto('videos')
        .values({
          video_id: `vlist${String(i).padStart(2, '0')}xxxxxxxxxxxxxxx`,
          owner_id: 2,
          face_id: otherFace,
          video_name: `v${i}`,
          script: 's',
          status: 'error',
          status_details: null,
          generation_progress: '0/4',
          callback_url: null,
          background_url: null,
          background_source_url: null,
          error_details: 'x',
          created_at: new Date(base + i * 1000),
          updated_at: new Date(base + i * 1000),
        })
        .execute();
    }
    const first = await t.api('GET', '/v2/videos', undefined, { key: OTHER_KEY });
    assert.equal(first.status, 200);
    assert.equal(first.body.total_count, 12);
    assert.equal(first.body.data.length, 10);
    assert.equal(first.body.data[0].video_name, 'v11', 'newest first');
    const second = await t.api('GET', '/v2/videos?page=2', undefined, { key: OTHER_KEY });
    assert.deepEqual(
      second.body.data.map((v: any) => v.video_name),
      ['v1', 'v0'],
    );
    const small = await t.api('GET', '/v2/videos?limit=5&page=3', undefined, { key: OTHER_KEY });
    assert.equal(small.body.data.length, 2);
    assert.equal(small.body.total_count, 12);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x']) assert.equal((await t.api('GET', `/v2/videos?${q}`)).status, 400, q);
    const mine = await t.api('GET', '/v2/videos');
    assert.ok(mine.body.data.every((v: any) => !v.video_id.startsWith('vlist')));

    const foreign = 'vlist00xxxxxxxxxxxxxxx';
    assert.equal((await t.api('GET', `/v2/videos/${foreign}`)).status, 404);
    assert.equal((await t.api('PATCH', `/v2/videos/${foreign}/name`, { video_name: 'mine now' })).status, 404);
    assert.equal((await t.api('DELETE', `/v2/videos/${foreign}`)).status, 404);
    assert.equal((await t.api('GET', '/v2/videos/vunknown')).status, 404);

    const renamed = await t.api('PATCH', `/v2/videos/${foreign}/name`, { video_name: 'Renamed' }, { key: OTHER_KEY });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.video_name, 'Renamed');
    assert.equal((await t.api('PATCH', `/v2/videos/${foreign}/name`, { video_name: '' }, { key: OTHER_KEY })).status, 400);
    assert.equal((await t.api('PATCH', `/v2/videos/${foreign}/name`, {}, { key: OTHER_KEY })).status, 400);

    const ready = (await t.api('GET', '/v2/videos')).body.data.find((v: any) => v.status === 'ready');
    const deleted = await t.api('DELETE', `/v2/videos/${ready.video_id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { deleted: true });
    assert.equal((await t.api('GET', `/v2/videos/${ready.video_id}`)).status, 404);
    assert.equal((await fetch(ready.download_url)).status, 404, 'the file goes with the video');
    assert.equal((await fetch(ready.hosted_url)).status, 404);
  });

  it('documents every route in the OpenAPI document, with the paging parameters', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    for (const [path, methods] of Object.entries({
      '/v2/videos': ['get', 'post'],
      '/v2/videos/{video_id}': ['get', 'delete'],
      '/v2/videos/{video_id}/name': ['patch'],
      '/videos/{video_id}': ['get'],
    })) {
      for (const m of methods) assert.ok(doc.paths[path]?.[m], `${m} ${path}`);
    }
    assert.deepEqual(doc.paths['/v2/videos'].get.parameters.map((p: any) => p.name).sort(), ['limit', 'page']);
  });
});

describe('video generation resumes and is idempotent', () => {
  it('a job whose worker died after the speech step resumes from it, publishes once and calls back once', async () => {
    const t = await startListeningService({}, { runJobs: false });
    const receiver = await startReceiver();
    try {
      const face = await insertFace(t, 1, { video: false });
      const created = await t.api('POST', '/v2/videos', { face_id: face, script: 'Once.', callback_url: `${receiver.url}/cb` });
      const { db, media } = t.service.deps;
      // What a worker that crashed after step 1 leaves behind: the speech stored, progress 1/4, its lease running.
      const speech = await createLocalRenderer({ searchPath: process.env.PATH ?? '' }).renderSpeech('Once.', 'en-us', 'wav');
      const stored = await media.store(db, { ownerId: 1, contentType: 'audio/wav', extension: 'wav', bytes: speech.bytes });
      await db
        .updateTable('videos')
        .set({ speech_media_url: stored.url, generation_progress: '1/4' })
        .where('video_id', '=', created.body.video_id)
        .execute();
      await db
        .updateTable('jobs')
        .set({ status: 'running', attempts: 1, locked_until: new Date(Date.now() - 1000) })
        .where('kind', '=', 'video.generate')
        .execute();

      t.service.deps.jobs.start();
      const video = await waitForFinished(t, `/v2/videos/${created.body.video_id}`);
      assert.equal(video.status, 'ready', video.error_details);
      assert.equal(video.generation_progress, '4/4');
      const row = await db.selectFrom('videos').selectAll().where('video_id', '=', created.body.video_id).executeTakeFirstOrThrow();
      assert.equal(row.speech_media_url, stored.url, 'the finished speech step was not redone');
      await receiver.next('/cb');

      // A rerun of the same job (lease expired after it finished) changes nothing and sends nothing.
      await videoGenerationJob(t.service.deps)({
        jobId: 0,
        payload: { video_id: created.body.video_id },
        attempt: 2,
        maxAttempts: 3,
        signal: new AbortController().signal,
      });
      await t.service.deps.jobs.drain();
      const deliveries = await db.selectFrom('webhook_deliveries').selectAll().where('url', '=', `${receiver.url}/cb`).execute();
      assert.equal(deliveries.length, 1);
      const again = await db.selectFrom('videos').selectAll().where('video_id', '=', created.body.video_id).executeTakeFirstOrThrow();
      assert.equal(again.video_media_url, row.video_media_url);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
  it('a video deleted before its job runs is skipped: no files, no callback', async () => {
    const t = await startListeningService({}, { runJobs: false });
    const receiver = await startReceiver();
    try {
      const face = await insertFace(t, 1, { video: false });
      const created = await t.api('POST', '/v2/videos', { face_id: face, script: 'Gone.', callback_url: `${receiver.url}/gone` });
      const { db } = t.service.deps;
      const mediaBefore = await db
        .selectFrom('media')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal((await t.api('DELETE', `/v2/videos/${created.body.video_id}`)).status, 200);
      t.service.deps.jobs.start();
      await t.service.deps.jobs.drain();
      const mediaAfter = await db
        .selectFrom('media')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(mediaAfter.n), Number(mediaBefore.n));
      assert.equal((await db.selectFrom('webhook_deliveries').selectAll().execute()).length, 0);
      const job = await db.selectFrom('jobs').select('status').where('kind', '=', 'video.generate').executeTakeFirstOrThrow();
      assert.equal(job.status, 'done');
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});

describe('videos without the rendering tools', () => {
  it('ends in error naming the missing tool, with an error callback', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'palkit-no-tools-'));
    const espeakOnly = mkdtempSync(join(tmpdir(), 'palkit-espeak-only-'));
    symlinkSync(execFileSync('which', ['espeak-ng']).toString().trim(), join(espeakOnly, 'espeak-ng'));
    const receiver = await startReceiver();
    // The native voice needs the espeak-ng program; the default voice needs nothing. The service brings its
    // own ffmpeg; PALKIT_FFMPEG pointing at nothing stands for a platform without one.
    const none = await startListeningService({ PALKIT_RENDER_PATH: empty, PALKIT_LOCAL_VOICE: 'native' });
    const noFfmpeg = await startListeningService({ PALKIT_RENDER_PATH: espeakOnly, PALKIT_FFMPEG: join(espeakOnly, 'ffmpeg') });
    try {
      const a = await none.api('POST', '/v2/videos', {
        face_id: await insertFace(none, 1),
        script: 'Hi.',
        callback_url: `${receiver.url}/none`,
      });
      const failed = await waitForFinished(none, `/v2/videos/${a.body.video_id}`);
      assert.equal(failed.status, 'error');
      assert.match(failed.error_details, /espeak-ng .*not installed/);
      assert.equal(failed.generation_progress, '0/4');
      const callback = await receiver.next('/none');
      assert.equal(callback.body.status, 'error');
      assert.equal(callback.body.error_details, failed.error_details);
      assert.ok(await signatureIsValid(none, callback));

      const b = await noFfmpeg.api('POST', '/v2/videos', { face_id: await insertFace(noFfmpeg, 1), script: 'Hi.' });
      const noVideo = await waitForFinished(noFfmpeg, `/v2/videos/${b.body.video_id}`);
      assert.equal(noVideo.status, 'error');
      assert.match(noVideo.error_details, /ffmpeg .*not installed/);
      assert.equal(noVideo.generation_progress, '2/4', 'speech and background steps were done before rendering failed');
    } finally {
      await none.close();
      await noFfmpeg.close();
      await receiver.close();
      rmSync(empty, { recursive: true, force: true });
      rmSync(espeakOnly, { recursive: true, force: true });
    }
  });
});
