// Documents never reach private, loopback or metadata addresses (by literal, by DNS name, or through a
// redirect) unless PALKIT_OUTBOUND_ALLOW allows them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, onPostgres, type TestService } from '../../../helpers/service.js';
import { page, startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: the outbound address policy, before any fetch';

describe('documents and private addresses', { skip }, () => {
  let strict: TestService;
  let site: TestSite;

  before(async () => {
    site = await startSite({
      '/file.txt': { body: 'internal secret', type: 'text/plain' },
      '/': { body: page('Intranet', 'Internal page.') },
      '/to-metadata': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/iam/' } },
      '/to-private': { status: 301, headers: { location: 'http://10.0.0.1/admin' } },
    });
    strict = await startTestService({ PALKIT_OUTBOUND_ALLOW: '', PALKIT_CRAWL_DELAY_MS: '0' });
  });
  after(async () => {
    await strict.close();
    await site.close();
  });

  async function outcome(t: TestService, body: Record<string, unknown>) {
    const created = await t.api('POST', '/v2/documents', body);
    assert.equal(created.status, 200);
    return waitForDocument(t.api, created.body.document_id);
  }

  it('refuses metadata, private and loopback addresses, by literal and by name, for files and crawls', async () => {
    const port = new URL(site.origin).port;
    const targets = [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/file.txt',
      'http://192.168.0.10/file.txt',
      `http://127.0.0.1:${port}/file.txt`,
      `http://localhost:${port}/file.txt`,
      `http://[::1]:${port}/file.txt`,
    ];
    for (const url of targets) {
      for (const crawl of [undefined, { depth: 1, max_pages: 3 }]) {
        const doc = await outcome(strict, { document_url: url, ...(crawl ? { crawl } : {}) });
        assert.equal(doc.status, 'error', url);
        assert.equal(doc.error_message, 'file_download_failed', `${url} ${crawl ? 'crawl' : 'file'}`);
      }
    }
    assert.equal(site.requests.length, 0, `the private site was reached: ${site.requests.join(', ')}`);
  });

  it('refuses redirects into private and metadata addresses even when the first host is allowed', async () => {
    const allowed = await startTestService({ PALKIT_CRAWL_DELAY_MS: '0' }); // loopback allowed, nothing else
    try {
      for (const path of ['/to-metadata', '/to-private']) {
        const file = await outcome(allowed, { document_url: site.origin + path });
        assert.equal(file.error_message, 'file_download_failed', path);
        const crawled = await outcome(allowed, { document_url: site.origin + path, crawl: { depth: 1, max_pages: 3 } });
        assert.equal(crawled.error_message, 'file_download_failed', `${path} crawl`);
      }
      // The same page is fine once its address is allowed.
      assert.equal((await outcome(allowed, { document_url: `${site.origin}/file.txt` })).status, 'ready');
    } finally {
      await allowed.close();
    }
  });
});
