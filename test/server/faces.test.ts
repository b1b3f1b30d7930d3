import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { verifiedWebhook } from '../helpers/webhook-verify.js';
import { startCallbackReceiver, startFileServer, waitUntil } from '../helpers/loopback.js';
import { OTHER_KEY, startTestService, type TestService } from '../helpers/service.js';
import { mediaFixture } from '../helpers/media-fixtures.js';

const mp4 = readFileSync(mediaFixture('sample-face.mp4'));
const webm = readFileSync(mediaFixture('sample-face.webm'));
const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('faces and replicas', () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
  let secret: string;

  before(async () => {
    t = await startTestService();
    files = await startFileServer({
      '/face.mp4': { body: mp4, contentType: 'video/mp4' },
      '/face.webm': { body: webm, contentType: 'video/webm' },
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

  async function trained(path: string, id: string) {
    let last: any;
    await waitUntil(async () => {
      last = (await t.api('GET', `${path}/${id}`)).body;
      return last.status !== 'training';
    }, 30_000, `training of ${id}`);
    return last;
  }

  function callbacksFor(id: string) {
    return receiver.received.filter((r) => r.body.replica_id === id || r.body.face_id === id);
  }

  function assertSigned(cb: { headers: Record<string, unknown>; raw: string }) {
    const ok = verifiedWebhook(secret, cb.headers, cb.raw);
    assert.ok(ok, 'callback signature verifies');
  }

  it('trains a replica from an MP4: progress, thumbnails, ready callbacks in order, signed', async () => {
    const created = await t.api('POST', '/v2/replicas', { replica_name: 'Anna', train_video_url: `${files.url}/face.mp4`, callback_url: `${receiver.url}/cb` });
    assert.equal(created.status, 200);
    assert.match(created.body.replica_id, /^r[a-z0-9]+$/);
    assert.equal(created.body.status, 'training');
    assert.equal(created.body.training_progress, '0/4');
    assert.match(created.body.created_at, isoMillis);
    const id = created.body.replica_id;

    const face = await trained('/v2/replicas', id);
    assert.equal(face.status, 'completed', JSON.stringify(face));
    assert.equal(face.training_progress, '4/4');
    assert.equal(face.error_message, null);
    assert.equal(face.replica_name, 'Anna');
    assert.equal(face.model_name, 'palkit-local-1');
    assert.match(face.updated_at, isoMillis);
    assert.equal(face.replica_type, undefined);

    const video = await fetch(face.thumbnail_video_url);
    assert.equal(video.status, 200);
    assert.equal(video.headers.get('content-type'), 'video/mp4');
    assert.deepEqual(Buffer.from(await video.arrayBuffer()), mp4);
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
  });

  it('trains a face from a WebM through /v2/faces with face_id and face_name', async () => {
    const created = await t.api('POST', '/v2/faces', { face_name: 'Bo', train_video_url: `${files.url}/face.webm`, callback_url: `${receiver.url}/faces` });
    assert.equal(created.status, 200);
    assert.match(created.body.face_id, /^r/);
    assert.equal(created.body.replica_id, undefined);
    assert.equal(created.body.face_name, 'Bo');
    const face = await trained('/v2/faces', created.body.face_id);
    assert.equal(face.status, 'completed', JSON.stringify(face));
    const video = await fetch(face.thumbnail_video_url);
    assert.equal(video.headers.get('content-type'), 'video/webm');
    assert.ok(face.thumbnail_image_url);
    await waitUntil(() => callbacksFor(created.body.face_id).length >= 2, 15_000, 'two callbacks');
    assert.deepEqual(callbacksFor(created.body.face_id).map((c) => ('replica_id' in c.body ? 'replica_id' : 'face_id')), ['replica_id', 'face_id']);
    // The same face is readable under the legacy name too.
    const legacy = await t.api('GET', `/v2/replicas/${created.body.face_id}`);
    assert.equal(legacy.body.replica_name, 'Bo');
  });

  it('accepts replica_name as an alias of face_name on /v2/faces', async () => {
    const created = await t.api('POST', '/v2/faces', { replica_name: 'Alias', train_video_url: `${files.url}/face.mp4` });
    assert.equal(created.status, 200);
    assert.equal(created.body.face_name, 'Alias');
  });

  for (const [file, pattern] of [
    ['notes.txt', /not a video/],
    ['empty.mp4', /empty/],
    ['tiny.mp4', /too small/],
    ['fake.mp4', /not usable/],
    ['gone.mp4', /answered 410/],
  ] as const) {
    it(`ends training with error for ${file} and sends the error callbacks`, async () => {
      const created = await t.api('POST', '/v2/replicas', { replica_name: file, train_video_url: `${files.url}/${file}`, callback_url: `${receiver.url}/err` });
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
    assert.deepEqual(other.body.data.map((f: any) => [f.replica_id, f.replica_name, f.replica_type, f.status]), [['rpalkitada', 'Ada', 'system', 'completed']], 'another owner sees none of these, only the built-in face');
    assert.equal(other.body.total_count, 1);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'limit=abc', 'verbose=maybe']) {
      assert.equal((await t.api('GET', `/v2/replicas?${q}`)).status, 400, q);
    }
  });

  it('offers the built-in face Ada to every owner: readable, usable as a PAL\'s face, its still image served, never deletable', async () => {
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
    const pal = await t.api('POST', '/v2/pals', { pal_name: 'With Ada', system_prompt: 'Hi', default_face_id: 'rpalkitada' }, { key: OTHER_KEY });
    assert.equal(pal.status, 200, JSON.stringify(pal.body));
    assert.equal((await t.api('DELETE', '/v2/faces/rpalkitada', undefined, { key: OTHER_KEY })).status, 404);
    assert.equal((await t.api('GET', '/v2/faces/rpalkitada')).status, 200, 'still there');
  });

  it('renames under both names and hides other owners’ faces (404)', async () => {
    const id = (await t.api('POST', '/v2/replicas', { replica_name: 'Old', train_video_url: `${files.url}/face.mp4` })).body.replica_id;
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
    const id = (await t.api('POST', '/v2/faces', { train_video_url: `${files.url}/face.mp4` })).body.face_id;
    const face = await trained('/v2/faces', id);
    assert.equal(face.status, 'completed');
    const del = await t.api('DELETE', `/v2/faces/${id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { deleted: true });
    assert.equal((await t.api('GET', `/v2/faces/${id}`)).status, 404);
    assert.equal((await fetch(face.thumbnail_video_url)).status, 404);
    assert.equal((await fetch(face.thumbnail_image_url)).status, 404);
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
