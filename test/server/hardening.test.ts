// Issue 11: nothing a visitor or a tenant sends can crash, stall or fool the service.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createPal } from '../helpers/fixtures.js';
import { insertConversation, insertFace, insertPal, RoomClient } from '../helpers/live-fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** Upgrades a raw TCP socket at `path` and writes `frame` bytes as they are; resolves with the first bytes the server sends after the handshake (or '' when it just closes). */
async function rawFrame(baseUrl: string, path: string, frames: Buffer[]): Promise<Buffer> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const key = randomBytes(16).toString('base64');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
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
    setTimeout(() => socket.destroy(), 5000);
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
    t = await startTestService({ PALKIT_TRUST_PROXY: '1' });
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
        Array.from({ length: 30 }, (_, i) => t.api('POST', `/v2/deployments/${id}/start`, { password: `guess-${i}` }, { key: null, headers: { 'x-forwarded-for': '192.0.2.99' } })),
      );
      const statuses = results.map((r) => r.status);
      const checked = statuses.filter((s) => s !== 429).length;
      assert.ok(checked <= 8, `at most 8 checked: ${statuses.join(',')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 30 - checked);
      for (const r of results.filter((x) => x.status === 429)) assert.deepEqual(r.body, { error: 'too_many_attempts' });
    });
  });
});
