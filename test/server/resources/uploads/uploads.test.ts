import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { OTHER_KEY, KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { portraitClip, portraitPhoto } from '../../../helpers/face-clips.js';

// The outbound policy here refuses loopback (PALKIT_OUTBOUND_ALLOW empty), as in production: an
// upload's URL must still train, read from the media store rather than fetched.
const webm = portraitClip(1, 'webm');

describe('POST /v2/uploads', () => {
  let t: TestService;
  before(async () => {
    t = await startListeningService({ PALKIT_OUTBOUND_ALLOW: '' });
  });
  after(() => t.close());

  /**
   * Each upload on a connection of its own (no keep-alive pool): a pooled connection left idle past the
   * service's keep-alive timeout (5 s) on a loaded machine can be closed as the next upload starts on it, a
   * reset that says nothing about the upload. A failure at the socket says which upload and why.
   */
  function upload(body: Uint8Array, contentType: string, key: string | null = KEY): Promise<{ status: number; body: any }> {
    const headers: Record<string, string | number> = { 'content-type': contentType, 'content-length': body.length };
    if (key) headers['x-api-key'] = key;
    return new Promise((resolve, reject) => {
      const sent = request(`${t.url}/v2/uploads`, { method: 'POST', headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        response.on('error', reject);
      });
      sent.on('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(`uploading ${body.length} bytes of ${contentType}: ${error.code ?? ''} ${error.message}`, { cause: error })),
      );
      sent.end(body);
    });
  }

  it('needs the key: 401 without it, nothing stored', async () => {
    const before = await t.service.deps.db
      .selectFrom('media')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const r = await upload(webm, 'video/webm', null);
    assert.equal(r.status, 401);
    assert.match(r.body.message, /API key/);
    const wrong = await upload(webm, 'video/webm', 'not-a-key');
    assert.equal(wrong.status, 401);
    const after = await t.service.deps.db
      .selectFrom('media')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));
  });

  it('refuses a type it does not take, and a body that is not what its type says, with 400', async () => {
    const text = await upload(new TextEncoder().encode('hello'), 'text/plain');
    assert.equal(text.status, 400);
    assert.match(text.body.error, /^invalid_request: content-type must be one of video\/webm/);
    const lie = await upload(new TextEncoder().encode('not a video at all'.repeat(100)), 'video/mp4');
    assert.equal(lie.status, 400);
    assert.equal(lie.body.error, 'invalid_request: the body is not video/mp4');
    const empty = await upload(new Uint8Array(0), 'image/png');
    assert.equal(empty.status, 400);
  });

  it('refuses a body over 50 MB with 413 (and takes one over the service-wide 1 MB)', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 1);
    big.set(webm.subarray(0, 64));
    const r = await upload(big, 'video/webm');
    assert.equal(r.status, 413);
    assert.match(r.body.error, /^payload_too_large: uploads are limited to 52428800 bytes/);
    const twoMb = new Uint8Array(2 * 1024 * 1024);
    twoMb.set(portraitPhoto('png'));
    const ok = await upload(twoMb, 'image/png');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.bytes, twoMb.length);
  });

  it('stores a clip that is fetchable and trains a face to completed through train_video_url', async () => {
    const r = await upload(webm, 'video/webm');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.content_type, 'video/webm');
    assert.equal(r.body.bytes, webm.length);
    assert.equal(r.body.url, `${t.url}/media/${r.body.upload_id}`);
    // Readable with its owner's key only: not by anyone holding its URL, nor by another owner.
    assert.equal((await fetch(r.body.url)).status, 404);
    assert.equal((await fetch(r.body.url, { headers: { 'x-api-key': OTHER_KEY } })).status, 404);
    const fetched = await fetch(r.body.url, { headers: { 'x-api-key': KEY } });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers.get('cache-control'), 'private, no-cache');
    assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), webm);

    const created = await t.api('POST', '/v2/faces', { face_name: 'Me', train_video_url: r.body.url });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await t.service.deps.jobs.drain(180_000);
    const face = (await t.api('GET', `/v2/faces/${created.body.face_id}`)).body;
    assert.equal(face.status, 'completed', JSON.stringify(face));
    assert.equal(face.training_progress, '6/6');
  });

  it("does not train from another owner's upload", async () => {
    const r = await upload(webm, 'video/webm', OTHER_KEY);
    assert.equal(r.status, 200);
    const created = await t.api('POST', '/v2/faces', { face_name: 'Not mine', train_video_url: r.body.url });
    await t.service.deps.jobs.drain(180_000);
    const face = (await t.api('GET', `/v2/faces/${created.body.face_id}`)).body;
    assert.equal(face.status, 'error');
    assert.match(face.error_message, /not yours/);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json')).body;
    const op = doc.paths['/v2/uploads'].post;
    assert.deepEqual(Object.keys(op.requestBody.content).sort(), [
      'image/jpeg',
      'image/png',
      'image/webp',
      'video/mp4',
      'video/quicktime',
      'video/webm',
    ]);
    assert.ok(op.responses['413'] && op.responses['401'] && op.responses['200']);
  });
});
