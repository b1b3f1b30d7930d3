// Issue 11: nothing a visitor or a tenant sends can crash, stall or fool the service.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createPal } from '../../helpers/fixtures.js';
import { insertConversation, insertFace, insertPal, RoomClient } from '../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../helpers/service.js';

/** Upgrades a raw TCP socket at `path` and writes `frame` bytes as they are; resolves with the first bytes the server sends after the handshake (or '' when it just closes). */
async function rawFrame(baseUrl: string, path: string, frames: Buffer[]): Promise<Buffer> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const key = randomBytes(16).toString('base64');
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const chunks: Buffer[] = [];
  let upgraded = false;
  return new Promise((resolve) => {
    socket.on('data', (d) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (!upgraded && end >= 0) {
        upgraded = true;
        assert.match(all.subarray(0, end).toString(), /^HTTP\/1.1 101/);
        chunks.splice(0, chunks.length, all.subarray(end + 4));
        for (const f of frames) socket.write(f);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    // A server that neither answers nor closes is given up on after 5 s of silence.
    socket.setTimeout(5000, () => socket.destroy());
  });
}

/** A client frame header (masked unless told otherwise) for `length` payload bytes. */
function frameHeader(opcode: number, length: number, masked = true): Buffer {
  const parts: number[] = [0x80 | opcode];
  const m = masked ? 0x80 : 0;
  if (length < 126) parts.push(m | length);
  else if (length < 65536) parts.push(m | 126, length >> 8, length & 0xff);
  else {
    parts.push(m | 127);
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(length));
    parts.push(...b);
  }
  return Buffer.concat([Buffer.from(parts), masked ? Buffer.alloc(4) : Buffer.alloc(0)]);
}

function closeCode(bytes: Buffer): number | undefined {
  // The server's close frame: 0x88, length, code (server frames are unmasked).
  const at = bytes.indexOf(0x88);
  return at >= 0 && bytes.length >= at + 4 ? bytes.readUInt16BE(at + 2) : undefined;
}

describe('hardening (issue 11)', () => {
  let t: TestService;
  // The service runs in this process: anything it fails to handle surfaces here instead of killing it.
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', record);
  after(() => process.off('uncaughtException', record));
  before(async () => {
    t = await startListeningService({ PALKIT_TRUST_PROXY: '1', PALKIT_LOG: process.env.DEBUG_LOG ? 'error' : 'silent' });
  });
  after(() => t.close());

  const alive = async () => {
    assert.equal((await fetch(`${t.url}/healthz`)).status, 200);
    assert.deepEqual(uncaught.map(String), [], 'nothing escaped as an uncaught exception (the real process would have exited)');
  };

  describe('1. room WebSocket frames', () => {
    const cases: Array<[string, Buffer[], number]> = [
      ['a frame announcing 100,000 bytes', [frameHeader(1, 100_000)], 1009],
      ['invalid UTF-8', [frameHeader(1, 2), Buffer.from([0xc3, 0x28])], 1007],
      ['an unmasked frame', [frameHeader(1, 2, false), Buffer.from('{}')], 1002],
      ['opcode 3', [frameHeader(3, 2), Buffer.from('{}')], 1002],
    ];
    for (const [name, frames, code] of cases) {
      it(`refuses ${name} with close code ${code} and stays up`, async () => {
        const reply = await rawFrame(t.url, '/rooms/anything', frames);
        assert.equal(closeCode(reply), code);
        await alive();
      });
    }

    it('refuses a 100 KiB text frame after a valid join with 1009, keeps 64 KiB frames', async () => {
      const faceId = await insertFace(t, { videoUrl: 'https://cdn.example/face.mp4' });
      const palId = await insertPal(t, { pipelineMode: 'echo', faceId });
      const room = await insertConversation(t, { palId });
      const client = await RoomClient.join(room.conversationUrl, room.token);
      client.socket.send(Buffer.alloc(60 * 1024), { binary: true });
      client.socket.send('x'.repeat(100 * 1024));
      const { code } = await client.closed;
      assert.equal(code, 1009);
      await alive();
    });
  });

  describe('2. password lockout under parallel guesses', () => {
    it('checks at most 8 guesses per window however they are sent', async () => {
      const { palId } = (await createPal(t)) as { palId: string };
      const created = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page', password: 'guess-17' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.deployment_id as string;
      assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status, 200);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          t.api(
            'POST',
            `/v2/deployments/${id}/start`,
            { password: `guess-${i}` },
            { key: null, headers: { 'x-forwarded-for': '192.0.2.99' } },
          ),
        ),
      );
      const statuses = results.map((r) => r.status);
      const checked = statuses.filter((s) => s !== 429).length;
      assert.ok(checked <= 8, `at most 8 checked: ${statuses.join(',')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 30 - checked);
      for (const r of results.filter((x) => x.status === 429)) assert.deepEqual(r.body, { error: 'too_many_attempts' });
    });
  });

  describe('3-5. bodies: lone surrogates, deep JSON, size', () => {
    let palId: string;
    let deploymentId: string;
    let canvasPalId: string;
    before(async () => {
      ({ palId } = (await createPal(t)) as { palId: string });
      const created = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page' });
      deploymentId = created.body.deployment_id;
      await t.api('PATCH', `/v2/deployments/${deploymentId}`, [{ op: 'replace', path: '/status', value: 'active' }]);
      canvasPalId = await insertPal(t, { canvas: {} });
    });
    const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const interaction = (metadata: string) =>
      `{"interaction_id":"ci_1","tool_call_id":"call_abc","component":"canvas.question","component_version":"v1","type":"submit","value":{"selected_option_ids":["opt_2"],"skipped":false},"metadata":${metadata}}`;

    it('3. refuses lone surrogates with 400, on public endpoints too', async () => {
      const start = await t.api('POST', `/v2/deployments/${deploymentId}/start`, '{"memory_stores":["visitor\\ud800"]}', { key: null });
      assert.equal(start.status, 400, JSON.stringify(start.body));
      assert.match(start.body.error, /surrogate/);
      const room = await insertConversation(t, { palId: canvasPalId });
      const canvas = await t.api(
        'POST',
        `/v2/conversations/${room.conversationId}/canvas/interactions`,
        interaction('{"note":"x\\ud800"}'),
        { key: null },
      );
      assert.equal(canvas.status, 400, JSON.stringify(canvas.body));
      for (const body of ['{"customization":{"k":"\\udc00"}}', '{"tags":["a\\ud800b"]}', '{"customization":{"\\ud800":1}}']) {
        const r = await t.api('POST', '/v2/deployments', `{"pal_id":"${palId}","channel":"widget",${body.slice(1)}`);
        assert.equal(r.status, 400, body + JSON.stringify(r.body));
      }
      // A proper pair is fine.
      const ok = await t.api('POST', '/v2/deployments', `{"pal_id":"${palId}","channel":"widget","customization":{"k":"\\ud83d\\ude00"}}`);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      await alive();
    });

    it('4. refuses JSON nested beyond 64 levels with 400', async () => {
      const deep = await t.api('POST', '/v2/deployments', `{"pal_id":"${palId}","channel":"widget","customization":${nested(4500)}}`);
      assert.equal(deep.status, 400, JSON.stringify(deep.body));
      assert.match(deep.body.error, /nest/);
      const patch = await t.api(
        'PATCH',
        `/v2/deployments/${deploymentId}`,
        `[{"op":"replace","path":"/customization","value":${nested(3000)}}]`,
      );
      assert.equal(patch.status, 400);
      const room = await insertConversation(t, { palId: canvasPalId });
      const canvas = await t.api('POST', `/v2/conversations/${room.conversationId}/canvas/interactions`, interaction(nested(6000)), {
        key: null,
      });
      assert.equal(canvas.status, 400);
      const fine = await t.api('POST', '/v2/deployments', `{"pal_id":"${palId}","channel":"widget","customization":${nested(20)}}`);
      assert.equal(fine.status, 200, JSON.stringify(fine.body));
      await alive();
    });

    it('5. caps bodies outside /v2 too (413)', async () => {
      const big = '{"a":"' + 'x'.repeat(2 * 1024 * 1024) + '"}';
      const r = await fetch(`${t.url}/nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
      assert.equal(r.status, 413);
      await alive();
    });
  });

  describe('9. secrets', () => {
    it('keeps layers.*.token, secret, password and headers.authorization write-only, like api_key', async () => {
      const { palId } = await createPal(t);
      const layers = {
        tts: { token: 'tok-plain-1', headers: { authorization: 'Bearer plain-2', accept: 'audio/mpeg' } },
        llm: { model: 'm', secret: 'plain-3', password: 'plain-4' },
      };
      const patched = await t.api('PATCH', `/v2/pals/${palId}`, [{ op: 'add', path: '/layers', value: layers }]);
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const shown = (await t.api('GET', `/v2/pals/${palId}`)).body;
      assert.doesNotMatch(JSON.stringify(shown), /plain-/);
      assert.deepEqual(shown.layers.tts, { token: '********', headers: { authorization: '********', accept: 'audio/mpeg' } });
      assert.equal(shown.layers.llm.password, '********');
      const row = await t.service.deps.db.selectFrom('pals').selectAll().where('pal_id', '=', palId).executeTakeFirstOrThrow();
      assert.doesNotMatch(JSON.stringify(row), /plain-/, 'stored encrypted');
      // Sending the shown document back keeps the stored secrets.
      const again = await t.api('PATCH', `/v2/pals/${palId}`, [{ op: 'replace', path: '/layers/llm/model', value: 'm2' }]);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.layers.tts.headers.authorization, '********');
    });
  });

  describe('8. page headers', () => {
    it('sends a CSP, nosniff and a framing policy on /docs, room and landing pages', async () => {
      const { palId } = (await createPal(t)) as { palId: string };
      const created = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page' });
      await t.api('PATCH', `/v2/deployments/${created.body.deployment_id}`, [{ op: 'replace', path: '/status', value: 'active' }]);
      const faceId = await insertFace(t, { videoUrl: 'https://cdn.example/face.mp4' });
      const room = await insertConversation(t, { palId: await insertPal(t, { pipelineMode: 'echo', faceId }) });
      for (const url of [`${t.url}/docs`, room.conversationUrl, `${t.url}/d/${created.body.deployment_id}`]) {
        const r = await fetch(url);
        assert.equal(r.status, 200, url);
        const html = await r.text();
        const csp = r.headers.get('content-security-policy') ?? '';
        assert.match(csp, /frame-ancestors 'none'/, url);
        assert.match(csp, /script-src 'self' blob:/, url);
        assert.match(csp, /worker-src 'self' blob:/, url);
        assert.match(csp, /media-src [^;]*blob: mediastream:/, url);
        assert.match(csp, new RegExp(`connect-src 'self' ws://${new URL(t.url).host}`), url);
        assert.doesNotMatch(csp, /unsafe-inline'[^;]*;?\s*$|script-src[^;]*unsafe-inline/, url);
        assert.equal(r.headers.get('x-content-type-options'), 'nosniff', url);
        assert.equal(r.headers.get('x-frame-options'), 'DENY', url);
        if (/<script>/.test(html)) assert.match(csp, /'sha256-/, url);
      }
    });
  });

  describe('10. smaller', () => {
    it('caps a public canvas interaction at 16 KiB (413)', async () => {
      const room = await insertConversation(t, { palId: await insertPal(t, { canvas: {} }) });
      const body = {
        interaction_id: 'ci_big',
        tool_call_id: 'call_abc',
        component: 'canvas.question',
        component_version: 'v1',
        type: 'submit',
        value: { selected_option_ids: ['opt_2'], skipped: false },
        metadata: { note: 'x'.repeat(20 * 1024) },
      };
      const r = await t.api('POST', `/v2/conversations/${room.conversationId}/canvas/interactions`, body, { key: null });
      assert.equal(r.status, 413, JSON.stringify(r.body));
      const rows = await t.service.deps.db
        .selectFrom('canvas_interactions')
        .selectAll()
        .where('conversation_id', '=', room.conversationId)
        .execute();
      assert.equal(rows.length, 0);
    });
  });
});
