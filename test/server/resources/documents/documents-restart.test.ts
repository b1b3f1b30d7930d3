// A crawl interrupted by a stop of the service (its job lease expires) runs again from scratch on the
// next instance and completes; one interrupted too often settles in error instead of `processing`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../../src/server/platform/config.js';
import { createService, type Service } from '../../../../src/server/app/service.js';
import { KEY, onPostgres } from '../../../helpers/service.js';
import { testDatabase } from '../../../helpers/pg-template.js';
import { seedDataFolder } from '../../../helpers/pglite-image.js';
import { page, startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';
import { waitFor } from '../../../helpers/wait-for.js';

/** One storage (a PGlite directory or a PostgreSQL database) that several service instances open in turn. */
function storage() {
  const dir = onPostgres ? undefined : mkdtempSync(join(tmpdir(), 'palkit-docs-'));
  const database = onPostgres ? testDatabase(process.env.PALKIT_TEST_DATABASE_URL!) : undefined;
  return {
    async start(): Promise<{ service: Service; api: (m: string, p: string, b?: unknown) => Promise<{ status: number; body: any }> }> {
      const config = loadConfig(
        {
          PALKIT_DATA: dir ?? 'memory',
          PALKIT_API_KEYS: `${KEY}:1`,
          PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8',
          PALKIT_LOG: 'error',
          PALKIT_JOB_LEASE_SECONDS: '2',
          PALKIT_CRAWL_DELAY_MS: '0',
          ...(database ? { DATABASE_URL: await database.url } : {}),
        },
        0,
      );
      if (dir) await seedDataFolder(dir); // the migrated database unpacked the first time (pglite-image.ts)
      const service = await createService(config);
      const { url } = await service.listen(0, '127.0.0.1');
      const api = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(url + path, {
          method,
          headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: r.status, body: await r.json() };
      };
      return { service, api };
    },
    async cleanup() {
      if (dir) rmSync(dir, { recursive: true, force: true });
      await database?.release();
    },
  };
}

describe('documents across a restart', () => {
  let site: TestSite;
  before(async () => {
    // A start page and nine slow pages: the crawl takes a few seconds.
    const links = Array.from({ length: 9 }, (_, i) => `/p${i + 1}`);
    site = await startSite({}, (path) => {
      const n = Number(/^\/p(\d+)$/.exec(path)?.[1] ?? (path === '/' ? 0 : NaN));
      if (!Number.isInteger(n) || n > 9) return undefined;
      return { body: page(`Page ${n}`, `Content of page number ${n}.`, n === 0 ? links : []), delayMs: 600 };
    });
  });
  after(() => site.close());

  async function interrupt(store: ReturnType<typeof storage>) {
    const first = await store.start();
    const created = await first.api('POST', '/v2/documents', { document_url: site.url, crawl: { depth: 1, max_pages: 10 } });
    assert.equal(created.status, 200);
    const id = created.body.document_id as string;
    let doc: any;
    await waitFor(
      async () => {
        doc = (await first.api('GET', `/v2/documents/${id}`)).body;
        return doc.status === 'processing' && doc.progress > 5;
      },
      { timeout: 15_000, interval: 50, what: () => `the crawl to get going: ${JSON.stringify(doc)}` },
    );
    await first.service.close(); // the job stops mid-crawl; its lease is left to expire
    return id;
  }

  it('finishes an interrupted crawl after the restart, from scratch', async () => {
    const store = storage();
    try {
      const id = await interrupt(store);
      const second = await store.start();
      try {
        assert.equal((await second.api('GET', `/v2/documents/${id}`)).body.status, 'processing');
        const doc = await waitForDocument(second.api, id, 30_000);
        assert.equal(doc.status, 'ready', doc.error_message);
        assert.equal(doc.crawled_urls.length, 10);
        assert.equal(doc.crawl_count, 1);
        const chunks = await second.service.deps.db
          .selectFrom('document_chunks')
          .select(['source_url'])
          .where('document_id', '=', id)
          .execute();
        assert.equal(new Set(chunks.map((c) => c.source_url)).size, 10);
        assert.equal(chunks.length, 10); // nothing duplicated by the first, interrupted attempt
      } finally {
        await second.service.close();
      }
    } finally {
      await store.cleanup();
    }
  });

  it('settles in error (website_processing_failed) when the attempts are used up', async () => {
    const store = storage();
    try {
      const id = await interrupt(store);
      const second = await store.start();
      try {
        // As if every earlier attempt had been interrupted as well.
        await second.service.deps.db
          .updateTable('jobs')
          .set((eb) => ({ attempts: eb.ref('max_attempts') }))
          .where('kind', '=', 'documents.ingest')
          .execute();
        const doc = await waitForDocument(second.api, id, 30_000);
        assert.equal(doc.status, 'error');
        assert.equal(doc.error_message, 'website_processing_failed');
        assert.equal(doc.progress, null);
      } finally {
        await second.service.close();
      }
    } finally {
      await store.cleanup();
    }
  });
});
