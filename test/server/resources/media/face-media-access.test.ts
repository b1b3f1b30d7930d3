// What a visitor receives of a face is derived, never the source (issue 52, N31): training keeps no copy of
// the clip, its thumbnails are a still and a short silent preview made from it, no route serves the clip
// (an upload goes to its owner's key alone), and a face's files are served only with a token bound to a
// conversation (or, before a start, to the deployment's page) or with the owner's key: never cached
// publicly, refused once the token expires (on the test's clock), once the call ends, once the face is deleted.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { portraitClip } from '../../../helpers/face-clips.js';
import { shiftedClock } from '../../../helpers/clock.js';
import { KEY, OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { locateFfmpeg } from '../../../../src/server/platform/media/ffmpeg.js';
import { FaceRig } from '../../../../src/protocol/faces/rig.js';

const ffmpeg = (() => {
  const found = locateFfmpeg(undefined);
  if ('missing' in found) throw new Error(found.missing);
  return found.path;
})();

/** The test clip with a tone as its sound track: what must never reach a visitor. */
function clipWithSound(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'palkit-sound-clip-'));
  try {
    writeFileSync(join(dir, 'in.mp4'), portraitClip(3, 'mp4'));
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-i',
      join(dir, 'in.mp4'),
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=3',
      '-c:v',
      'copy',
      '-c:a',
      'aac',
      '-shortest',
      '-y',
      join(dir, 'out.mp4'),
    ]);
    return readFileSync(join(dir, 'out.mp4'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What ffmpeg says of a file's streams (its input block). */
function streamsOf(bytes: Buffer, extension: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'palkit-probe-'));
  try {
    writeFileSync(join(dir, `f.${extension}`), bytes);
    return spawnSync(ffmpeg, ['-hide_banner', '-i', join(dir, `f.${extension}`)], { encoding: 'utf8' }).stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sizeOf = (streams: string) =>
  streams
    .match(/Video: .*?, (\d{2,5})x(\d{2,5})/)!
    .slice(1)
    .map(Number) as [number, number];

describe("a face's media: derived, and only for whom it is meant", () => {
  let t: TestService;
  let offsetMs = 0;
  const clip = clipWithSound();
  let uploadUrl: string;
  let faceId: string;
  let palId: string;
  let deploymentId: string;

  const get = (url: string, key?: string) => fetch(url, key ? { headers: { 'x-api-key': key } } : {});
  const status = async (url: string, key?: string) => {
    const r = await get(url, key);
    await r.body?.cancel();
    return r.status;
  };

  before(async () => {
    t = await startListeningService({}, { clock: shiftedClock(() => offsetMs) });
    const uploaded = await fetch(`${t.url}/v2/uploads`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'video/mp4' },
      body: new Uint8Array(clip),
    });
    assert.equal(uploaded.status, 200);
    uploadUrl = ((await uploaded.json()) as { url: string }).url;
    const created = await t.api('POST', '/v2/faces', { face_name: 'Me', train_video_url: uploadUrl });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    faceId = created.body.face_id;
    await t.service.deps.jobs.drain(180_000);
    const face = (await t.api('GET', `/v2/faces/${faceId}`)).body;
    assert.equal(face.status, 'completed', JSON.stringify(face));
    const pal = await t.api('POST', '/v2/pals', { pal_name: 'Mine', system_prompt: 'Hi', pipeline_mode: 'echo', default_face_id: faceId });
    assert.equal(pal.status, 200, JSON.stringify(pal.body));
    palId = pal.body.pal_id;
    const deployment = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'widget' });
    deploymentId = deployment.body.deployment_id;
    assert.equal(
      (await t.api('PATCH', `/v2/deployments/${deploymentId}`, [{ op: 'replace', path: '/status', value: 'active' }])).status,
      200,
    );
  });
  after(() => t?.close());

  it("serves the upload to its owner's key alone", async () => {
    assert.equal(await status(uploadUrl), 404);
    assert.equal(await status(uploadUrl, OTHER_KEY), 404);
    assert.equal(await status(uploadUrl, KEY), 200);
  });

  it('keeps no copy of the clip once trained, and no route serves one', async () => {
    const rows = await t.service.deps.db.selectFrom('media').select(['media_id', 'access', 'face_id']).where('owner_id', '=', 1).execute();
    for (const row of rows) {
      const media = await t.service.deps.media.get(t.service.deps.db, row.media_id);
      const same = Buffer.from(await media!.bytes()).equals(clip);
      // The upload is the one file with the clip's bytes (its owner's, for a day); nothing else is the clip.
      assert.equal(same, row.media_id === uploadUrl.split('/').pop(), `${row.media_id} (${row.access})`);
      if (row.face_id === faceId) assert.equal(row.access, 'face');
    }
    assert.ok(!rows.some((r) => r.access === 'private'), 'the private copy training read is deleted');
  });

  it('shows a still and a short silent preview derived from the clip', async () => {
    const face = (await t.api('GET', `/v2/faces/${faceId}`)).body;
    const video = await get(face.thumbnail_video_url, KEY);
    assert.equal(video.status, 200);
    assert.equal(video.headers.get('content-type'), 'video/mp4');
    const preview = Buffer.from(await video.arrayBuffer());
    assert.ok(!preview.equals(clip));
    const streams = streamsOf(preview, 'mp4');
    assert.doesNotMatch(streams, /Audio:/, 'no sound');
    assert.ok(Math.max(...sizeOf(streams)) <= 360, streams);
    assert.match(streams, /Duration: 00:00:0[0-3]\./);
    const image = await get(face.thumbnail_image_url, KEY);
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
    assert.ok(Math.max(...sizeOf(streamsOf(Buffer.from(await image.arrayBuffer()), 'jpg'))) <= 640);
  });

  it("refuses a face's files at their bare address without the owner's key; the owner's reads carry a token of its own", async () => {
    const face = (await t.api('GET', `/v2/faces/${faceId}?verbose=true`)).body;
    for (const read of [face.thumbnail_video_url, face.thumbnail_image_url, face.face_rig_url] as string[]) {
      assert.match(read, /\/media\/t\/fm\.o1\./);
      assert.equal(await status(read), 200, "the owner's link, for its pages");
      const url = read.replace(/\/media\/t\/[^/]+\//, '/media/');
      assert.equal(await status(url), 404, url);
      assert.equal(await status(url, OTHER_KEY), 404, url);
      const owned = await get(url, KEY);
      assert.equal(owned.status, 200, url);
      assert.doesNotMatch(owned.headers.get('cache-control') ?? '', /public|immutable/);
      await owned.body?.cancel();
    }
  });

  it("hands the deployment's page the preview with a token bound to it, cached privately", async () => {
    const init = await t.api('GET', `/v2/deployments/${deploymentId}/init`, undefined, { key: null });
    for (const url of [init.body.thumbnail_video_url, init.body.thumbnail_image_url] as string[]) {
      assert.match(url, /\/media\/t\/fm\.d[a-z0-9]+\./);
      const r = await get(url);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('cache-control'), 'private, max-age=300');
      await r.body?.cancel();
      // The token reaches this face's files only: not the upload, not another file.
      assert.equal(await status(url.replace(/[^/]+$/, uploadUrl.split('/').pop()!)), 404);
      assert.equal(
        await status(url.replace(/\.[A-Za-z0-9_-]+\/([^/]+)$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/$1')),
        404,
        'a forged signature',
      );
    }
  });

  it('hands a call its face with a token bound to the conversation: refused once it expires or the call ends', async () => {
    const conversation = await t.api('POST', '/v2/conversations', { pal_id: palId, properties: { max_call_duration: 600 } });
    assert.equal(conversation.status, 200, JSON.stringify(conversation.body));
    const rigUrl = conversation.body.face_rig_url as string;
    assert.match(rigUrl, /\/media\/t\/fm\.c[a-z0-9]+\./);
    const rig = FaceRig.parse(await (await get(rigUrl)).json());
    const files = [rigUrl, new URL(rig.idle.url, rigUrl).href, new URL(rig.mouths.sheet.url, rigUrl).href];
    for (const url of files) assert.equal(await status(url), 200, url);

    // The room's expiry (600 s and its margin) passed, on the service's clock.
    offsetMs = 3600_000;
    for (const url of files) assert.equal(await status(url), 404, url);
    offsetMs = 0;
    assert.equal(await status(rigUrl), 200);

    assert.equal((await t.api('POST', `/v2/conversations/${conversation.body.conversation_id}/end`)).status, 200);
    offsetMs = 10_000; // past the few seconds a conversation's state is kept
    for (const url of files) assert.equal(await status(url), 404, url);
    offsetMs = 0;
  });

  it('stops serving every file of a face once it is deleted', async () => {
    const init = await t.api('GET', `/v2/deployments/${deploymentId}/init`, undefined, { key: null });
    const conversation = await t.api('POST', '/v2/conversations', { pal_id: palId });
    const face = (await t.api('GET', `/v2/faces/${faceId}?verbose=true`)).body;
    const urls = [init.body.thumbnail_video_url, init.body.thumbnail_image_url, conversation.body.face_rig_url, face.face_rig_url];
    assert.equal(await status(urls[0]), 200);
    assert.equal((await t.api('DELETE', `/v2/deployments/${deploymentId}`)).status, 200);
    assert.equal((await t.api('DELETE', `/v2/pals/${palId}`)).status, 200);
    assert.equal((await t.api('DELETE', `/v2/faces/${faceId}`)).status, 200);
    for (const url of urls) {
      assert.equal(await status(url), 404, url);
      assert.equal(await status(url, KEY), 404, url);
    }
    const left = await t.service.deps.db.selectFrom('media').select('media_id').where('face_id', '=', faceId).execute();
    assert.deepEqual(left, []);
  });
});
