// Uploads with quotas (issue 52, N34): one key stored 1.8 GB in 20 s, each 50 MB body read whole into
// memory. Now an owner may keep so many bytes of uploads at once and send so many a minute (429 with the
// spec's error body and Retry-After past either; a declared size past them is refused before its body is
// read), and a body is streamed to its file as it arrives.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../helpers/clock.js';
import { KEY, OTHER_KEY, onPostgres, startListeningService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';

const MB = 1024 * 1024;
/** A JPEG's signature, then filler: the upload checks the signature, the trainer is not asked. */
const jpeg = (bytes: number) => {
  const body = new Uint8Array(bytes);
  body.set([0xff, 0xd8, 0xff, 0xe0]);
  return body;
};

async function upload(t: TestService, body: Uint8Array, key = KEY) {
  const response = await fetch(`${t.url}/v2/uploads`, {
    method: 'POST',
    headers: { 'content-type': 'image/jpeg', 'x-api-key': key },
    body: body as Uint8Array<ArrayBuffer>,
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

describe('uploads, bounded per owner', () => {
  const services: TestService[] = [];
  after(() => Promise.all(services.map((s) => s.close())));

  it('past the rate: 429 upload_rate_exceeded with Retry-After; a minute later, and another owner meanwhile, accepted', async () => {
    const clock = new ManualClock();
    const t = await startListeningService({ PALKIT_UPLOAD_MB_PER_MINUTE: '2' }, { clock });
    services.push(t);
    assert.equal((await upload(t, jpeg(1.5 * MB))).status, 200);
    const refused = await upload(t, jpeg(1 * MB));
    assert.equal(refused.status, 429);
    assert.match(refused.body.error, /^upload_rate_exceeded: at most 2 MB of uploads a minute/);
    assert.ok(Number(refused.retryAfter) > 0 && Number(refused.retryAfter) <= 60);
    assert.equal((await upload(t, jpeg(1 * MB), OTHER_KEY)).status, 200, 'another owner is not affected');
    await clock.advance(61_000);
    assert.equal((await upload(t, jpeg(1 * MB))).status, 200, 'a minute later');
  });

  it('past the quota: 429 upload_quota_exceeded; room again once the uploads expire', async () => {
    const clock = new ManualClock();
    const t = await startListeningService({ PALKIT_UPLOAD_QUOTA_MB: '3', PALKIT_UPLOAD_LIFETIME_SECONDS: '3600' }, { clock });
    services.push(t);
    assert.equal((await upload(t, jpeg(1.2 * MB))).status, 200);
    assert.equal((await upload(t, jpeg(1.2 * MB))).status, 200);
    const refused = await upload(t, jpeg(1.2 * MB));
    assert.equal(refused.status, 429);
    assert.match(refused.body.error, /^upload_quota_exceeded: your uploads kept now come to 2 MB of 3 MB/);
    assert.ok(Number(refused.retryAfter) > 0);
    await clock.leap(3601_000);
    assert.equal((await upload(t, jpeg(1.2 * MB))).status, 200, 'expired uploads no longer count');
  });

  it('a declared size past the quota is refused before its body is read', async () => {
    const t = await startListeningService({ PALKIT_UPLOAD_QUOTA_MB: '3' });
    services.push(t);
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${t.url}/v2/uploads`,
        { method: 'POST', headers: { 'content-type': 'image/jpeg', 'x-api-key': KEY, 'content-length': String(40 * MB) } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      // Only the first bytes are ever sent: the answer comes without the rest.
      req.write(jpeg(64 * 1024));
    });
    assert.equal(status, 429);
    assert.match(JSON.parse(body).error, /^upload_quota_exceeded/);
  });

  // Both watch the media folder, which only the embedded database keeps (on PostgreSQL media are rows, and a
  // body streams to a temporary file first): the PGlite leg covers them.
  const filesHere = onPostgres && 'media are rows on PostgreSQL: the PGlite leg watches the media folder';

  it('a large body is streamed to its file as it arrives, not read whole first', { skip: filesHere }, async () => {
    const t = await startListeningService();
    services.push(t);
    const folder = t.service.deps.media.folder;
    assert.ok(folder, 'media are files here (PGlite)');
    const partialBytes = () =>
      readdirSync(folder)
        .filter((n) => n.endsWith('.tmp'))
        .reduce((sum, n) => sum + statSync(join(folder, n)).size, 0);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${t.url}/v2/uploads`,
        { method: 'POST', headers: { 'content-type': 'image/jpeg', 'x-api-key': KEY, 'transfer-encoding': 'chunked' } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      const whole = jpeg(30 * MB);
      req.write(whole.subarray(0, 12 * MB));
      // Twelve of the 30 MB are on disk while the rest has not been sent.
      void waitFor(() => partialBytes() >= 10 * MB, { timeout: 20_000, what: 'the body on disk while it arrives' }).then(() => {
        req.end(whole.subarray(12 * MB));
      }, reject);
    });
    const { status, body } = await response;
    assert.equal(status, 200, body);
    assert.equal(JSON.parse(body).bytes, 30 * MB);
    assert.equal(partialBytes(), 0, 'no partial file left');
  });

  it('a chunked body past 50 MB is refused with 413, nothing kept', { skip: filesHere }, async () => {
    const t = await startListeningService();
    services.push(t);
    const before = readdirSync(t.service.deps.media.folder!).length;
    const response = await fetch(`${t.url}/v2/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', 'x-api-key': KEY },
      duplex: 'half',
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(jpeg(MB));
          for (let i = 0; i < 51; i++) controller.enqueue(new Uint8Array(MB));
          controller.close();
        },
      }),
    } as RequestInit).catch(() => undefined);
    if (response) assert.equal(response.status, 413);
    await waitFor(() => readdirSync(t.service.deps.media.folder!).length === before, { what: 'the partial file removed' });
  });
});
