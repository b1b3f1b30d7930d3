// Issue 54, item 5: the service sent palkit.js and palkit-full.js uncompressed to browsers that accept
// brotli and gzip. It sends the copy the build wrote beside each script (scripts/precompress.ts) that the
// request's Accept-Encoding accepts, brotli first, with Vary; the file as built to a client that accepts none.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressed } from '../../../../scripts/precompress.js';
import { cdnDir } from '../../../../src/server/resources/site/assets.js';
import { acceptedEncodings } from '../../../../src/server/resources/site/encoding.js';
import { startTestService, type TestService } from '../../../helpers/service.js';

// A chunk of this run's own beside the built ones (chunks are served by name), so the test needs no build.
const NAME = `encoding-test-${process.pid}.js`;
const SOURCE = `export const words = ${JSON.stringify('the same words again and again '.repeat(200))};\n`;
const chunks = join(cdnDir, 'chunks');

describe('scripts sent compressed by Accept-Encoding', () => {
  let t: TestService;
  const get = async (path: string, acceptEncoding?: string) => {
    const response = await t.fetchInProcess(
      new Request(`http://palkit.test${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }),
    );
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  before(async () => {
    mkdirSync(chunks, { recursive: true });
    const { br, gz } = compressed(Buffer.from(SOURCE));
    writeFileSync(join(chunks, NAME), SOURCE);
    writeFileSync(join(chunks, `${NAME}.br`), br);
    writeFileSync(join(chunks, `${NAME}.gz`), gz);
    t = await startTestService();
  });
  after(async () => {
    for (const suffix of ['', '.br', '.gz']) rmSync(join(chunks, NAME + suffix), { force: true });
    await t.close();
  });

  it('brotli to a browser that accepts it, smaller, the same script once decoded', async () => {
    const { response, bytes } = await get(`/chunks/${NAME}`, 'gzip, deflate, br, zstd');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-encoding'), 'br');
    assert.equal(response.headers.get('vary'), 'accept-encoding');
    assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.ok(bytes.length < SOURCE.length / 10, `${bytes.length} bytes sent for ${SOURCE.length}`);
    assert.equal(brotliDecompressSync(bytes).toString(), SOURCE);
  });

  it('gzip where brotli is not accepted, or weighs less', async () => {
    for (const header of ['gzip, deflate', 'br;q=0.5, gzip', 'br;q=0, *']) {
      const { response, bytes } = await get(`/chunks/${NAME}`, header);
      assert.equal(response.headers.get('content-encoding'), 'gzip', header);
      assert.equal(gunzipSync(bytes).toString(), SOURCE, header);
    }
  });

  it('the file as built to a client that accepts no encoding we have', async () => {
    for (const header of [undefined, '', 'identity', 'deflate', 'gzip;q=0, br;q=0']) {
      const { response, bytes } = await get(`/chunks/${NAME}`, header);
      assert.equal(response.headers.get('content-encoding'), null, String(header));
      assert.equal(response.headers.get('vary'), 'accept-encoding');
      assert.equal(bytes.toString(), SOURCE);
    }
  });

  it('reads Accept-Encoding as RFC 9110 does', () => {
    assert.deepEqual(acceptedEncodings('gzip, deflate, br'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('GZIP;q=1.0, BR;Q=0.8'), ['gzip', 'br']);
    assert.deepEqual(acceptedEncodings('*'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('x-gzip'), ['gzip']);
    assert.deepEqual(acceptedEncodings('br;q=abc'), []);
    assert.deepEqual(acceptedEncodings(null), []);
  });
});
