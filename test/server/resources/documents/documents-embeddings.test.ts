// The OpenAI-compatible embedder, against a loopback server speaking OpenAI's /v1/embeddings JSON.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HashedEmbedder } from '../../../../src/server/resources/documents/embed/hashed.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';

describe('OpenAI-compatible embeddings', () => {
  let fake: http.Server;
  let t: TestService;
  let site: TestSite;
  const requests: Array<{ auth: string | undefined; path: string; body: any }> = [];

  before(async () => {
    const local = new HashedEmbedder();
    fake = http.createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const body = JSON.parse(text);
      requests.push({ auth: req.headers.authorization, path: req.url ?? '', body });
      // A model that ignores `dimensions` and answers 1536-dimensional vectors (a real one would honour it).
      const vectors = await local.embed(body.input as string[]);
      const data = vectors
        .map((v, index) => ({ object: 'embedding', index, embedding: [...v, ...new Array(1536 - v.length).fill(0)] }))
        .reverse();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    site = await startSite({
      '/notes.txt': { body: 'Parking is behind the building.\n\nThe wifi password is on the fridge.', type: 'text/plain' },
    });
    t = await startTestService({
      PALKIT_EMBEDDINGS_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
      PALKIT_EMBEDDINGS_API_KEY: 'sk-test-secret',
      PALKIT_EMBEDDINGS_MODEL: 'text-embedding-3-small',
    });
  });
  after(async () => {
    await t.close();
    await site.close();
    fake.closeAllConnections();
    await new Promise((r) => fake.close(r));
  });

  it('embeds chunks and queries through the endpoint and ranks with its vectors', async () => {
    const created = await t.api('POST', '/v2/documents', { document_url: `${site.origin}/notes.txt` });
    const doc = await waitForDocument(t.api, created.body.document_id);
    assert.equal(doc.status, 'ready', doc.error_message);
    const ingest = requests[0]!;
    assert.equal(ingest.path, '/v1/embeddings');
    assert.equal(ingest.auth, 'Bearer sk-test-secret');
    assert.equal(ingest.body.model, 'text-embedding-3-small');
    assert.equal(ingest.body.dimensions, 256);
    assert.deepEqual(ingest.body.input, ['Parking is behind the building.\n\nThe wifi password is on the fridge.']);

    const r = await t.api('POST', '/v2/documents/search', { query: 'where is the wifi password' });
    assert.equal(r.status, 200);
    assert.match(r.body.data[0].content, /wifi password/);
    assert.equal(requests.at(-1)!.body.input[0], 'where is the wifi password');
    const chunk = await t.service.deps.db
      .selectFrom('document_chunks')
      .select('embedder')
      .where('document_id', '=', doc.document_id)
      .executeTakeFirstOrThrow();
    assert.equal(chunk.embedder, 'openai:text-embedding-3-small');
  });
});
