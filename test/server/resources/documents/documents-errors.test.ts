// Every error code a document can end with, reached through real inputs (or, for the last-resort
// codes, through the real failure path: an exhausted job, a failing embeddings server, a database
// that refuses the chunks).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { ingestJob, INGEST_JOB } from '../../../../src/server/resources/documents/pipeline.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { page, startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';

/**
 * The document's outcome. A run that fails with a retryable error is tried again after the queue's backoff
 * (0.5 s, then 1 s); each time its job is seen waiting for one, the wait is brought forward to now (the
 * retries themselves all run, as the jobs table's own tests wait them out).
 */
function settled(service: TestService, documentId: string) {
  const { db } = service.service.deps;
  const hurry = () =>
    db
      .updateTable('jobs')
      .set({ run_at: new Date() })
      .where('kind', '=', INGEST_JOB)
      .where('status', '=', 'queued')
      .where('run_at', '>', new Date())
      .where(sql`payload->>'document_id'`, '=', documentId)
      .execute();
  return waitForDocument(
    async (method, path) => {
      await hurry();
      return service.api(method, path);
    },
    documentId,
    30_000,
  );
}

describe('document error codes', () => {
  let t: TestService;
  let site: TestSite;

  before(async () => {
    site = await startSite({
      '/missing.txt': { status: 404, body: 'nope', type: 'text/plain' },
      '/image.png': {
        body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]),
        type: 'image/png',
      },
      '/archive.zip': { body: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), type: 'application/zip' },
      '/empty.txt': { body: '', type: 'text/plain' },
      '/blank.html': { body: '<html><body><nav>only a menu</nav></body></html>' },
      '/huge.txt': { body: 'x', type: 'text/plain', headers: { 'content-length': String(30 * 1024 * 1024) } },
      '/broken.pdf': { body: '%PDF-1.7\nthis is not really a pdf', type: 'application/pdf' },
      '/robots.txt': { body: 'User-agent: palkit\nDisallow: /closed\n', type: 'text/plain' },
      '/closed/': { body: page('Closed', 'Not for crawlers.') },
      '/to-metadata': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
    });
    t = await startTestService({ PALKIT_CRAWL_DELAY_MS: '0' });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  async function outcome(body: Record<string, unknown>) {
    const created = await t.api('POST', '/v2/documents', body);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return settled(t, created.body.document_id);
  }

  const cases: Array<[string, Record<string, unknown> | (() => Record<string, unknown>)]> = [
    ['invalid_file_url', { document_url: 'not a url' }],
    ['invalid_file_url', { document_url: 'ftp://example.com/file.pdf' }],
    ['invalid_file_url', { document_url: 'not a url either', crawl: { depth: 1, max_pages: 2 } }],
    ['file_download_failed', () => ({ document_url: `${site.origin}/missing.txt` })],
    ['file_download_failed', () => ({ document_url: `${site.origin}/to-metadata` })],
    ['file_download_failed', { document_url: 'http://10.0.0.1/file.pdf' }],
    ['file_format_unsupported', () => ({ document_url: `${site.origin}/image.png` })],
    ['file_format_unsupported', () => ({ document_url: `${site.origin}/archive.zip` })],
    ['file_empty', () => ({ document_url: `${site.origin}/empty.txt` })],
    ['file_empty', () => ({ document_url: `${site.origin}/blank.html` })],
    ['file_size_too_large', () => ({ document_url: `${site.origin}/huge.txt` })],
    ['document_processing_failed', () => ({ document_url: `${site.origin}/broken.pdf` })],
    ['website_processing_failed', () => ({ document_url: `${site.origin}/closed/`, crawl: { depth: 1, max_pages: 5 } })],
    ['file_download_failed', () => ({ document_url: `${site.origin}/missing.txt`, crawl: { depth: 1, max_pages: 5 } })],
  ];
  for (const [code, body] of cases) {
    it(`${code} for ${typeof body === 'function' ? 'a site path' : JSON.stringify(body)}`, async () => {
      const doc = await outcome(typeof body === 'function' ? body() : body);
      assert.equal(doc.status, 'error');
      assert.equal(doc.error_message, code);
      assert.equal(doc.progress, null);
    });
  }

  it('chunking_failed for a text too long to index', async () => {
    const sentence = 'This sentence is here to make a very long text file for the chunker. ';
    site.routes.set('/long.txt', { body: sentence.repeat(Math.ceil((8.6 * 1024 * 1024) / sentence.length)), type: 'text/plain' });
    const doc = await outcome({ document_url: `${site.origin}/long.txt` });
    assert.equal(doc.error_message, 'chunking_failed');
  });

  it('vector_store_failed when the database refuses the chunks', async () => {
    const db = t.service.deps.db;
    await sql`create or replace function palkit_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`.execute(
      db,
    );
    await sql`create trigger palkit_test_refuse before insert on document_chunks for each row execute function palkit_test_refuse()`.execute(
      db,
    );
    try {
      site.routes.set('/fine.txt', { body: 'A perfectly fine text.', type: 'text/plain' });
      const doc = await outcome({ document_url: `${site.origin}/fine.txt` });
      assert.equal(doc.error_message, 'vector_store_failed');
    } finally {
      await sql`drop trigger palkit_test_refuse on document_chunks`.execute(db);
    }
  });

  it('contact_support (file) and website_processing_failed (crawl) when a run is interrupted too often', async () => {
    const runner = await startTestService({}, { runJobs: false });
    try {
      const file = await runner.api('POST', '/v2/documents', { document_url: `${site.origin}/fine.txt` });
      const crawl = await runner.api('POST', '/v2/documents', { document_url: site.url, crawl: { depth: 1, max_pages: 2 } });
      const handler = ingestJob(runner.service.deps);
      for (const created of [file, crawl]) {
        const row = await runner.service.deps.db
          .selectFrom('documents')
          .select('run_id')
          .where('document_id', '=', created.body.document_id)
          .executeTakeFirstOrThrow();
        // The queue hands a job out again after each lease expiry; the 4th run of a 3-attempt job settles it.
        await handler({
          jobId: 0,
          payload: { document_id: created.body.document_id, run_id: row.run_id! },
          attempt: 4,
          maxAttempts: 3,
          signal: new AbortController().signal,
        });
      }
      assert.equal((await runner.api('GET', `/v2/documents/${file.body.document_id}`)).body.error_message, 'contact_support');
      assert.equal((await runner.api('GET', `/v2/documents/${crawl.body.document_id}`)).body.error_message, 'website_processing_failed');
      const jobs = await runner.service.deps.db.selectFrom('jobs').select('kind').where('kind', '=', INGEST_JOB).execute();
      assert.equal(jobs.length, 2);
    } finally {
      await runner.close();
    }
  });

  it('embedding_failed when the embeddings server fails, after retries', async () => {
    let calls = 0;
    const fake = http.createServer((req, res) => {
      calls++;
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const remote = await startTestService({ PALKIT_EMBEDDINGS_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1` });
    try {
      const created = await remote.api('POST', '/v2/documents', { document_url: `${site.origin}/fine.txt` });
      const doc = await settled(remote, created.body.document_id);
      assert.equal(doc.error_message, 'embedding_failed');
      assert.equal(calls, 3); // one per attempt
      const search = await remote.api('POST', '/v2/documents/search', { query: 'anything' });
      assert.equal(search.status, 502);
      assert.match(search.body.error, /embedding_failed/);
    } finally {
      await remote.close();
      fake.closeAllConnections();
      await new Promise((r) => fake.close(r));
    }
  });
});
