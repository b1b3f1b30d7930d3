// An oversized request body gets a readable 413 with the spec's error body, never a reset: ten
// concurrent uploads of four times the limit, from a process of their own, all read the answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_BODY_BYTES } from '../../../../src/server/app/http/app.js';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startListeningService, KEY, onPostgres, type TestService } from '../../../helpers/service.js';

const run = promisify(execFile);
const poster = fileURLToPath(new URL('../../../helpers/oversized-poster.mjs', import.meta.url));

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: the HTTP body limit, before any query';

describe('oversized bodies', { skip }, () => {
  let t: TestService;
  before(async () => {
    t = await startListeningService();
  });
  after(async () => {
    await t?.close();
  });

  it('answers 10 concurrent oversized POSTs with a readable 413 and the error body', async () => {
    const { stdout } = await run(process.execPath, [poster, `${t.url}/v2/pals`, KEY, String(MAX_BODY_BYTES * 4), '10'], {
      timeout: 60_000,
    });
    const outcomes = JSON.parse(stdout) as Array<{ status: number; body?: string; error?: string }>;
    assert.deepEqual(
      outcomes.map((o) => o.status),
      Array(10).fill(413),
      JSON.stringify(outcomes.filter((o) => o.status !== 413)),
    );
    for (const o of outcomes) assert.match(JSON.parse(o.body!).error, /payload_too_large/);
  });

  it('answers an oversized chunked body with a readable 413', async () => {
    const chunk = Buffer.alloc(256 * 1024, 'a');
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= MAX_BODY_BYTES * 3) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const r = await fetch(`${t.url}/v2/pals`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(r.status, 413);
    assert.match(((await r.json()) as { error: string }).error, /payload_too_large/);
  });

  it('reads a chunked body within the limit whole', async () => {
    const json = new TextEncoder().encode(
      JSON.stringify({ pal_name: 'Chunked', system_prompt: 'x'.repeat(100_000), pipeline_mode: 'echo', default_face_id: 'rpalkitada' }),
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < json.length; at += 16 * 1024) controller.enqueue(json.subarray(at, at + 16 * 1024));
        controller.close();
      },
    });
    const r = await fetch(`${t.url}/v2/pals`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const body = (await r.json()) as { pal_id?: string };
    assert.equal(r.status, 200, JSON.stringify(body));
    const pal = await t.api('GET', `/v2/pals/${body.pal_id}`);
    assert.equal(pal.body.system_prompt.length, 100_000);
  });
});
