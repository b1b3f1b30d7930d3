import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { verifiedWebhook } from '../../../helpers/webhook-verify.js';
import { startCallbackReceiver, startFileServer, waitUntil } from '../../../helpers/loopback.js';
import { OTHER_KEY, startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';
import { mediaFixture } from '../../../helpers/media-fixtures.js';
import { portraitClip, portraitPhoto, tinyFacePhoto, twoFacesClip } from '../../../helpers/face-clips.js';
import { FaceRig } from '../../../../src/protocol/faces/rig.js';
import { VISEMES } from '../../../../src/protocol/visemes.js';

// A real face: training learns it. The test pattern has none.
const mp4 = portraitClip(3, 'mp4');
const webm = portraitClip(2, 'webm');
const pattern = readFileSync(mediaFixture('sample-face.mp4'));
const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: training (ffmpeg, the trainer); face rows: face-media-access, face-training-restart';

describe('faces and replicas', { skip }, () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
  let secret: string;

  before(async () => {
    t = await startListeningService();
    files = await startFileServer({
      '/face.mp4': { body: mp4, contentType: 'video/mp4' },
      '/face.webm': { body: webm, contentType: 'video/webm' },
      '/face.jpg': { body: portraitPhoto('jpg'), contentType: 'image/jpeg' },
      '/face.png': { body: portraitPhoto('png'), contentType: 'image/png' },
      '/face.webp': { body: portraitPhoto('webp'), contentType: 'image/webp' },
      '/pattern.mp4': { body: pattern, contentType: 'video/mp4' },
      '/two.mp4': { body: twoFacesClip(), contentType: 'video/mp4' },
      '/tiny.png': { body: tinyFacePhoto(), contentType: 'image/png' },
      '/notes.txt': { body: 'hello, this is not a video\n'.repeat(200), contentType: 'text/plain' },
      '/empty.mp4': { body: '' },
      '/tiny.mp4': { body: mp4.subarray(0, 200) },
      // A valid MP4 signature over garbage: only decoding can tell.
      '/fake.mp4': { body: Buffer.concat([mp4.subarray(0, 32), Buffer.alloc(8000, 7)]) },
      '/gone.mp4': { status: 410, body: 'gone' },
    });
    receiver = await startCallbackReceiver();
    secret = (await t.api('GET', '/v2/webhooks/secret')).body.secret;
  });
  after(async () => {
    await t.close();
    await files.close();
    await receiver.close();
  });

  /** A face trained from face.mp4 by the first test: the delete test deletes it rather than train another. */
  let trainedFromMp4: string | undefined;

  /** The face once its training job is done (awaited through the job queue; landmarks take a few seconds). */
  async function trained(path: string, id: string) {
    await t.service.deps.jobs.drain(180_000);
    return (await t.api('GET', `${path}/${id}`)).body;
  }

  function callbacksFor(id: string) {
    return receiver.received.filter((r) => r.body.replica_id === id || r.body.face_id === id);
  }

  function assertSigned(cb: { headers: Record<string, unknown>; raw: string }) {
    const ok = verifiedWebhook(secret, cb.headers, cb.raw);
    assert.ok(ok, 'callback signature verifies');
  }

  it('trains a replica from an MP4: progress, thumbnails, ready callbacks in order, signed', async () => {
    const created = await t.api('POST', '/v2/replicas', {
      replica_name: 'Anna',
      train_video_url: `${files.url}/face.mp4`,
      callback_url: `${receiver.url}/cb`,
    });
    assert.equal(created.status, 200);
    assert.match(created.body.replica_id, /^r[a-z0-9]+$/);
    assert.equal(created.body.status, 'training');
    assert.equal(created.body.training_progress, '0/6');
    assert.match(created.body.created_at, isoMillis);
    const id = created.body.replica_id;

    const face = await trained('/v2/replicas', id);
    assert.equal(face.status, 'completed', JSON.stringify(face));
    trainedFromMp4 = id;
    assert.equal(face.training_progress, '6/6');
    assert.equal(face.error_message, null);
    assert.equal(face.replica_name, 'Anna');
    assert.equal(face.model_name, 'palkit-rig-1');
    assert.match(face.updated_at, isoMillis);
    assert.equal(face.replica_type, undefined);

    // Derived from the clip, never the clip itself (media/face-media-access.test.ts checks it is silent and small).
    const video = await fetch(face.thumbnail_video_url);
    assert.equal(video.status, 200);
    assert.equal(video.headers.get('content-type'), 'video/mp4');
    assert.notDeepEqual(Buffer.from(await video.arrayBuffer()), mp4);
    const image = await fetch(face.thumbnail_image_url);
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
    const jpeg = Buffer.from(await image.arrayBuffer());
    assert.equal(jpeg[0], 0xff);
    assert.equal(jpeg[1], 0xd8);

    await waitUntil(() => callbacksFor(id).length >= 2, 15_000, 'two callbacks');
    const [legacy, current] = callbacksFor(id);
    assert.deepEqual(legacy!.body, { replica_id: id, status: 'ready' });
    assert.deepEqual(current!.body, { face_id: id, status: 'ready' });
    assert.equal(legacy!.path, '/cb');
    assertSigned(legacy!);
    assertSigned(current!);
    assert.notEqual(legacy!.headers['webhook-id'], current!.headers['webhook-id']);
    const verbose = await t.api('GET', `/v2/replicas/${id}?verbose=true`);
    assert.equal(verbose.body.replica_type, 'user');
    // The clip is a still face zooming slowly: its mouth never moves, so only rest comes from the footage.
    assert.deepEqual(verbose.body.visemes_from_footage, ['rest']);
    assert.deepEqual(
      verbose.body.visemes_warped,
      VISEMES.filter((v) => v !== 'rest'),
    );
    const rig = await fetchRig(verbose.body.face_rig_url);
    assert.ok(rig.idle.count >= 15, `a loop of at least 1.5 s: ${rig.idle.count} frames`);
    assert.equal(rig.fps, 10);
    // A clip's own head motion: a mesh of its landmarks on every idle frame.
    assert.equal(rig.mesh?.motion, 'footage');
    assert.equal(rig.mesh.frames.length, rig.idle.count);
    assert.ok(!('face_rig_url' in face), 'the rig is shown in the verbose read only');
  });

  /** Fetches a rig and its sheets: valid, cached privately only, each sheet the size its cells say; returns the rig. */
  async function fetchRig(url: string): Promise<FaceRig> {
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'private, max-age=300');
    const rig = FaceRig.parse(await response.json());
    assert.equal(rig.poses.length, rig.idle.count);
    assert.deepEqual(Object.keys(rig.visemes).sort(), [...VISEMES].sort());
    for (const [sheet, type, magic] of [
      [rig.idle, 'image/jpeg', 'ffd8'],
      [rig.mouths.sheet, 'image/webp', '52494646'],
    ] as const) {
      const image = await fetch(new URL(sheet.url, url));
      assert.equal(image.status, 200, sheet.url);
      assert.equal(image.headers.get('content-type'), type);
      assert.equal(image.headers.get('cache-control'), 'private, max-age=300');
      assert.equal(
        Buffer.from(await image.arrayBuffer())
          .subarray(0, magic.length / 2)
          .toString('hex'),
        magic,
      );
    }
    // Every pose puts the mouth inside the frame, about where a face's mouth is.
    for (const pose of rig.poses) {
      assert.ok(
        pose.x > rig.width * 0.3 && pose.x < rig.width * 0.7 && pose.y > rig.height * 0.3 && pose.y < rig.height * 0.8,
        JSON.stringify(pose),
      );
      assert.ok(pose.width > 30 && pose.width < 200, JSON.stringify(pose));
    }
    return rig;
  }

  for (const photo of ['face.jpg', 'face.png', 'face.webp']) {
    it(`trains a face from one photo (${photo}): one still frame whose head the renderer moves, every mouth but rest made by the mesh`, async () => {
      const created = await t.api('POST', '/v2/faces', {
        face_name: photo,
        train_video_url: `${files.url}/${photo}`,
        callback_url: `${receiver.url}/photo`,
      });
      const face = await trained('/v2/faces', created.body.face_id);
      assert.equal(face.status, 'completed', JSON.stringify(face));
      assert.ok(!('thumbnail_video_url' in face), 'a photo has no video');
      // A still made from the photo (a JPEG without its metadata), never the photo itself.
      const image = await fetch(face.thumbnail_image_url);
      assert.equal(image.headers.get('content-type'), 'image/jpeg');
      assert.notDeepEqual(Buffer.from(await image.arrayBuffer()), photo === 'face.jpg' ? portraitPhoto('jpg') : undefined);
      const verbose = (await t.api('GET', `/v2/faces/${created.body.face_id}?verbose=true`)).body;
      assert.deepEqual(verbose.visemes_from_footage, ['rest']);
      assert.equal(verbose.visemes_warped.length, VISEMES.length - 1);
      assert.ok(verbose.face_rig_bytes < 2_000_000, `a photo's rig within 2 MB: ${verbose.face_rig_bytes}`);
      const rig = await fetchRig(verbose.face_rig_url);
      assert.equal(rig.version, 2);
      assert.equal(rig.idle.count, 1);
      // The head's life is drawn (face-drawing/mesh.ts livingHead), over the mesh of FaceMesh's points and the rings round it.
      assert.equal(rig.mesh?.motion, 'generated');
      assert.equal(rig.mesh.frames.length, 1);
      assert.ok(
        rig.mesh.head.length > 468 && rig.mesh.triangles.length / 3 > 800,
        `${rig.mesh.head.length} points, ${rig.mesh.triangles.length / 3} triangles`,
      );
      await waitUntil(() => callbacksFor(created.body.face_id).length >= 2, 15_000, 'two callbacks');
      assert.equal(callbacksFor(created.body.face_id)[1]!.body.status, 'ready');
    });
  }

  it('trains a face from a WebM through /v2/faces with face_id and face_name', async () => {
    const created = await t.api('POST', '/v2/faces', {
      face_name: 'Bo',
      train_video_url: `${files.url}/face.webm`,
      callback_url: `${receiver.url}/faces`,
    });
    assert.equal(created.status, 200);
    assert.match(created.body.face_id, /^r/);
    assert.equal(created.body.replica_id, undefined);
    assert.equal(created.body.face_name, 'Bo');
    const face = await trained('/v2/faces', created.body.face_id);
    assert.equal(face.status, 'completed', JSON.stringify(face));
    const video = await fetch(face.thumbnail_video_url);
    assert.equal(video.headers.get('content-type'), 'video/mp4', 'a preview made from the WebM');
    assert.ok(face.thumbnail_image_url);
    await waitUntil(() => callbacksFor(created.body.face_id).length >= 2, 15_000, 'two callbacks');
    assert.deepEqual(
      callbacksFor(created.body.face_id).map((c) => ('replica_id' in c.body ? 'replica_id' : 'face_id')),
      ['replica_id', 'face_id'],
    );
    // The same face is readable under the legacy name too.
    const legacy = await t.api('GET', `/v2/replicas/${created.body.face_id}`);
    assert.equal(legacy.body.replica_name, 'Bo');
  });

  it('accepts replica_name as an alias of face_name on /v2/faces', async () => {
    // A video that fails at once (410): the name is what this test is about, and a full training left
    // running would be done in the next test's drain, for nothing.
    const created = await t.api('POST', '/v2/faces', { replica_name: 'Alias', train_video_url: `${files.url}/gone.mp4` });
    assert.equal(created.status, 200);
    assert.equal(created.body.face_name, 'Alias');
  });

  for (const [file, pattern] of [
    ['notes.txt', /not a video or a photo/],
    ['pattern.mp4', /no face was found in the video: record one person facing the camera/],
    ['two.mp4', /two or more faces are in the video: record a video of one person alone/],
    ['tiny.png', /the face is too small \(\d+ px across, at least 96 px needed\): use a larger photo/],
    ['empty.mp4', /empty/],
    ['tiny.mp4', /too small/],
    ['fake.mp4', /not usable/],
    ['gone.mp4', /answered 410/],
  ] as const) {
    it(`ends training with error for ${file} and sends the error callbacks`, async () => {
      const created = await t.api('POST', '/v2/replicas', {
        replica_name: file,
        train_video_url: `${files.url}/${file}`,
        callback_url: `${receiver.url}/err`,
      });
      assert.equal(created.status, 200);
      const id = created.body.replica_id;
      const face = await trained('/v2/replicas', id);
      assert.equal(face.status, 'error');
      assert.match(face.error_message, pattern);
      assert.ok(!('thumbnail_video_url' in face), 'omitted, not null');
      assert.ok(!('model_name' in face), 'omitted, not null');
      await waitUntil(() => callbacksFor(id).length >= 2, 15_000, 'error callbacks');
      const [legacy, current] = callbacksFor(id);
      assert.deepEqual(legacy!.body, { replica_id: id, status: 'error', error_message: face.error_message });
      assert.deepEqual(current!.body, { face_id: id, status: 'error', error_message: face.error_message });
      assertSigned(current!);
    });
  }

  it('refuses a training video on a blocked address with an error status', async () => {
    const created = await t.api('POST', '/v2/replicas', { train_video_url: 'http://169.254.169.254/latest/video.mp4' });
    const face = await trained('/v2/replicas', created.body.replica_id);
    assert.equal(face.status, 'error');
    assert.match(face.error_message, /not reachable/);
    assert.equal(face.replica_name, 'Untitled face');
  });

  it('validates create bodies', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ replica_name: 'x' }, /train_video_url/],
      [{ train_video_url: 'ftp://example.com/a.mp4' }, /train_video_url/],
      [{ train_video_url: 'not a url' }, /train_video_url/],
      [{ train_video_url: `${files.url}/face.mp4`, replica_name: 42 }, /replica_name/],
      [{ train_video_url: `${files.url}/face.mp4`, replica_name: '' }, /replica_name/],
      [{ train_video_url: `${files.url}/face.mp4`, callback_url: 'javascript:alert(1)' }, /callback_url/],
      [{ train_video_url: `${files.url}/face.mp4`, colour: 'blue' }, /colour|unrecognized/i],
    ];
    for (const [body, pattern] of cases) {
      const r = await t.api('POST', '/v2/replicas', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error, pattern);
    }
    const malformed = await t.api('POST', '/v2/faces', '{"face_name":');
    assert.equal(malformed.status, 400);
    const noKey = await t.api('POST', '/v2/replicas', { train_video_url: `${files.url}/face.mp4` }, { key: null });
    assert.equal(noKey.status, 401);
    assert.equal(typeof noKey.body.message, 'string');
  });

  it('lists faces page by page with total_count: the caller’s and the built-in ones', async () => {
    const all = await t.api('GET', '/v2/replicas?limit=100');
    assert.equal(all.status, 200);
    const total = all.body.total_count;
    assert.ok(total >= 9);
    assert.equal(all.body.data.length, total);
    const page1 = await t.api('GET', '/v2/replicas?limit=2&page=1');
    const page2 = await t.api('GET', '/v2/replicas?limit=2&page=2&verbose=true');
    assert.equal(page1.body.data.length, 2);
    assert.equal(page1.body.total_count, total);
    assert.notEqual(page1.body.data[0].replica_id, page2.body.data[0].replica_id);
    assert.equal(page2.body.data[0].replica_type, 'user');
    assert.equal(page1.body.data[0].replica_type, undefined);
    const faces = await t.api('GET', '/v2/faces?limit=1');
    assert.ok(faces.body.data[0].face_id);
    const defaults = await t.api('GET', '/v2/faces');
    assert.equal(defaults.body.data.length, Math.min(10, total));
    const other = await t.api('GET', '/v2/replicas?verbose=true', undefined, { key: OTHER_KEY });
    assert.deepEqual(
      other.body.data.map((f: any) => [f.replica_id, f.replica_name, f.replica_type, f.status]),
      [['rpalkitada', 'Ada', 'system', 'completed']],
      'another owner sees none of these, only the built-in face',
    );
    assert.equal(other.body.total_count, 1);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'limit=abc', 'verbose=maybe']) {
      assert.equal((await t.api('GET', `/v2/replicas?${q}`)).status, 400, q);
    }
  });

  it("offers the built-in face Ada to every owner: readable, usable as a PAL's face, its still image served, never deletable", async () => {
    const ada = await t.api('GET', '/v2/faces/rpalkitada?verbose=true', undefined, { key: OTHER_KEY });
    assert.equal(ada.status, 200);
    assert.equal(ada.body.replica_type, 'system');
    assert.equal(ada.body.thumbnail_image_url, `${t.url}/faces/palkit-ada.svg`, 'an absolute address on this service');
    const image = await fetch(ada.body.thumbnail_image_url);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/svg+xml');
    assert.equal(image.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await image.text(), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 960 540"/);
    assert.equal((await fetch(`${t.url}/faces/nobody.svg`)).status, 404);
    const pal = await t.api(
      'POST',
      '/v2/pals',
      { pal_name: 'With Ada', system_prompt: 'Hi', default_face_id: 'rpalkitada' },
      { key: OTHER_KEY },
    );
    assert.equal(pal.status, 200, JSON.stringify(pal.body));
    assert.equal((await t.api('DELETE', '/v2/faces/rpalkitada', undefined, { key: OTHER_KEY })).status, 404);
    assert.equal((await t.api('GET', '/v2/faces/rpalkitada')).status, 200, 'still there');
  });

  it('renames under both names and hides other owners’ faces (404)', async () => {
    // Names and owners do not depend on training: a video that fails at once (410) spares a full one.
    const id = (await t.api('POST', '/v2/replicas', { replica_name: 'Old', train_video_url: `${files.url}/gone.mp4` })).body.replica_id;
    const r1 = await t.api('PATCH', `/v2/replicas/${id}/name`, { replica_name: 'New' });
    assert.equal(r1.status, 200);
    assert.equal(r1.body.replica_name, 'New');
    const r2 = await t.api('PATCH', `/v2/faces/${id}/name`, { face_name: 'Newer' });
    assert.equal(r2.body.face_name, 'Newer');
    const r3 = await t.api('PATCH', `/v2/faces/${id}/name`, { replica_name: 'Newest' });
    assert.equal(r3.body.face_name, 'Newest');
    assert.equal((await t.api('PATCH', `/v2/replicas/${id}/name`, { replica_name: 7 })).status, 400);
    assert.equal((await t.api('PATCH', `/v2/replicas/${id}/name`, {})).status, 400);
    assert.equal((await t.api('PATCH', `/v2/faces/${id}/name`, {})).status, 400);

    for (const [method, path, body] of [
      ['GET', `/v2/replicas/${id}`, undefined],
      ['GET', `/v2/faces/${id}`, undefined],
      ['PATCH', `/v2/replicas/${id}/name`, { replica_name: 'Mine' }],
      ['DELETE', `/v2/faces/${id}`, undefined],
    ] as const) {
      const r = await t.api(method, path, body, { key: OTHER_KEY });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.match(r.body.error, /not found/);
    }
    assert.equal((await t.api('GET', '/v2/replicas/rnothing')).status, 404);
    assert.equal((await t.api('DELETE', '/v2/replicas/rnothing')).status, 404);
  });

  it('deletes a face with its media', async () => {
    // The first test's face (one training of the clip, not two), or, when that test did not run, a new one.
    const id = trainedFromMp4 ?? (await t.api('POST', '/v2/faces', { train_video_url: `${files.url}/face.mp4` })).body.face_id;
    const face = await trained('/v2/faces', id);
    assert.equal(face.status, 'completed');
    const rigUrl = (await t.api('GET', `/v2/faces/${id}?verbose=true`)).body.face_rig_url;
    const rig = await (await fetch(rigUrl)).json();
    const del = await t.api('DELETE', `/v2/faces/${id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { deleted: true });
    assert.equal((await t.api('GET', `/v2/faces/${id}`)).status, 404);
    assert.equal((await fetch(face.thumbnail_video_url)).status, 404);
    assert.equal((await fetch(face.thumbnail_image_url)).status, 404);
    for (const url of [rigUrl, new URL(rig.idle.url, rigUrl), new URL(rig.mouths.sheet.url, rigUrl)])
      assert.equal((await fetch(url)).status, 404, String(url));
    assert.equal((await t.api('DELETE', `/v2/replicas/${id}`)).status, 404);
  });

  it('documents every face route in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    for (const base of ['/v2/replicas', '/v2/faces']) {
      assert.ok(doc.paths[base].post && doc.paths[base].get, base);
      const one = base === '/v2/replicas' ? '/v2/replicas/{replica_id}' : '/v2/faces/{face_id}';
      assert.ok(doc.paths[one].get && doc.paths[one].delete, one);
      assert.ok(doc.paths[`${one}/name`].patch);
      assert.ok(doc.paths[one].get.tags.length > 0);
    }
  });
});
