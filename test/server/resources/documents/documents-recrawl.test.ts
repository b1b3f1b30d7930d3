// Recrawl: every rule of the spec's transition and error tables, the per-owner crawl limits, status
// callbacks while it runs, and vectors replaced only when the new crawl succeeds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../../../src/server/platform/time.js';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';
import { page, startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { shiftedClock } from '../../../helpers/clock.js';

const HOUR = 60 * 60 * 1000;

describe('recrawl', () => {
  let t: TestService;
  let site: TestSite;
  let offsetMs = 0;
  const clock: Clock = shiftedClock(() => offsetMs);

  before(async () => {
    site = await startSite(
      {
        '/': { body: page('Home', 'The old menu lists apple pie.', ['/one']) },
        '/one': { body: page('One', 'Page one about plums.') },
        '/file.txt': { body: 'A text file about pears.', type: 'text/plain' },
        '/hook': { body: 'ok', type: 'text/plain' },
      },
      (path) => (path.startsWith('/slow/') ? { body: page('Slow', `Slow page ${path}.`, [`${path}x`]), delayMs: 400 } : undefined),
    );
    t = await startTestService({ PALKIT_CRAWL_DELAY_MS: '0' }, { clock });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const search = async (id: string, query: string) =>
    (await t.api('POST', '/v2/documents/search', { query, document_ids: [id], limit: 10 })).body.data as Array<{ content: string }>;

  it('recrawls a website: previous values shown while it runs, refreshed when it succeeds, callbacks sent', async () => {
    const created = await t.api('POST', '/v2/documents', {
      document_url: site.url,
      crawl: { depth: 1, max_pages: 10 },
      callback_url: `${site.origin}/hook`,
    });
    const first = await waitForDocument(t.api, created.body.document_id);
    assert.equal(first.status, 'ready');
    assert.equal(first.crawl_count, 1);
    const id = first.document_id as string;

    // The site changes; the new page is slow so the recrawl can be watched.
    site.routes.set('/', { body: page('Home', 'The new menu lists cherry tart.', ['/one', '/slow/two']) });
    const started = await t.api('POST', `/v2/documents/${id}/recrawl`, { crawl: { depth: 1, max_pages: 3 } });
    assert.equal(started.status, 202);
    assert.equal(started.body.status, 'recrawling');
    assert.deepEqual(started.body.crawl_config, { depth: 1, max_pages: 3 }); // the override in use
    assert.deepEqual(started.body.crawled_urls, first.crawled_urls);
    assert.equal(started.body.crawl_count, 1);
    assert.equal(started.body.last_crawled_at, first.last_crawled_at);

    // While it runs: 409 naming the status, and the old knowledge still answers.
    const busy = await t.api('POST', `/v2/documents/${id}/recrawl`);
    assert.equal(busy.status, 409);
    assert.match(busy.body.error, /recrawling/);
    assert.match((await search(id, 'apple pie'))[0]!.content, /apple pie/);

    const done = await waitForDocument(t.api, id);
    assert.equal(done.status, 'ready');
    assert.equal(done.crawl_count, 2);
    assert.deepEqual(done.crawled_urls, [site.url, `${site.origin}/one`, `${site.origin}/slow/two`]);
    assert.ok(done.last_crawled_at > first.last_crawled_at);
    assert.deepEqual(done.crawl_config, { depth: 1, max_pages: 10 }); // the override was for that run only
    const hits = await search(id, 'cherry tart apple pie');
    assert.match(hits[0]!.content, /cherry tart/);
    assert.ok(
      hits.every((h) => !/apple pie/.test(h.content)),
      'old vectors survived the successful recrawl',
    );

    const statuses = () => site.posts.filter((p) => p.body?.document_id === id).map((p) => p.body.status);
    await waitFor(() => statuses().filter((s) => s === 'ready').length >= 2, { timeout: 30_000, interval: 50 });
    assert.deepEqual([...statuses()].sort(), ['processing', 'ready', 'ready', 'recrawling', 'started']);
    assert.ok(site.posts.every((p) => p.body.event_type === 'document.status_changed'));

    // Within the hour: 429 naming the minutes; after it, allowed again.
    const cooling = await t.api('POST', `/v2/documents/${id}/recrawl`);
    assert.equal(cooling.status, 429);
    assert.match(cooling.body.error, /60 minutes/);
    assert.ok(Number(cooling.headers.get('retry-after')) > 3500);
    offsetMs = 45 * 60 * 1000;
    assert.match((await t.api('POST', `/v2/documents/${id}/recrawl`)).body.error, /15 minutes/);
    offsetMs = HOUR + 1000;
    const again = await t.api('POST', `/v2/documents/${id}/recrawl`);
    assert.equal(again.status, 202);
    await waitForDocument(t.api, id);
  });

  it('keeps the old vectors when a recrawl fails, and sets error_message', async () => {
    offsetMs += 2 * HOUR;
    site.routes.set('/', { body: page('Home', 'Stable content about quinces.', ['/one']) });
    const created = await t.api('POST', '/v2/documents', { document_url: site.url, crawl: { depth: 0, max_pages: 1 } });
    const doc = await waitForDocument(t.api, created.body.document_id);
    const id = doc.document_id as string;
    const before = await t.service.deps.db
      .selectFrom('document_chunks')
      .select(['content', 'generation'])
      .where('document_id', '=', id)
      .execute();
    assert.ok(before.length > 0);

    site.routes.set('/', { status: 503, body: 'down' });
    assert.equal((await t.api('POST', `/v2/documents/${id}/recrawl`)).status, 202);
    const failed = await waitForDocument(t.api, id);
    assert.equal(failed.status, 'error');
    assert.equal(failed.error_message, 'file_download_failed');
    assert.equal(failed.crawl_count, 1);
    assert.deepEqual(failed.crawled_urls, doc.crawled_urls);
    const after = await t.service.deps.db
      .selectFrom('document_chunks')
      .select(['content', 'generation'])
      .where('document_id', '=', id)
      .execute();
    assert.deepEqual(after, before);

    // From error a recrawl may start again (after the hour), and a success clears the error.
    site.routes.set('/', { body: page('Home', 'Back with figs.', []) });
    offsetMs += HOUR + 1000;
    assert.equal((await t.api('POST', `/v2/documents/${id}/recrawl`)).status, 202);
    const back = await waitForDocument(t.api, id);
    assert.equal(back.status, 'ready');
    assert.equal(back.error_message, undefined);
    assert.equal(back.crawl_count, 2);
  });

  it('answers 404 with a message, 400 without crawl settings, and accepts crawl in the body for a file', async () => {
    const missing = await t.api('POST', '/v2/documents/dnothere/recrawl');
    assert.equal(missing.status, 404);
    assert.equal(typeof missing.body.message, 'string');
    assert.equal(missing.body.error, undefined);

    const file = await waitForDocument(
      t.api,
      (await t.api('POST', '/v2/documents', { document_url: `${site.origin}/one` })).body.document_id,
    );
    for (const field of ['crawl_config', 'crawled_urls', 'last_crawled_at', 'callback_url'])
      assert.ok(!(field in file), `${field} is omitted on a file document`);
    assert.equal((await t.api('POST', `/v2/documents/${file.document_id}/recrawl`, undefined, { key: OTHER_KEY })).status, 404);
    const noConfig = await t.api('POST', `/v2/documents/${file.document_id}/recrawl`);
    assert.equal(noConfig.status, 400);
    assert.match(noConfig.body.error, /crawl/);
    assert.equal((await t.api('POST', `/v2/documents/${file.document_id}/recrawl`, { crawl: { depth: 9 } })).status, 400);
    assert.equal((await t.api('POST', `/v2/documents/${file.document_id}/recrawl`, { other: 1 })).status, 400);
    const withBody = await t.api('POST', `/v2/documents/${file.document_id}/recrawl`, { crawl: { depth: 0, max_pages: 1 } });
    assert.equal(withBody.status, 202);
    assert.deepEqual(withBody.body.crawl_config, { depth: 0, max_pages: 1 });
    const done = await waitForDocument(t.api, file.document_id);
    assert.equal(done.status, 'ready');
    assert.deepEqual(done.crawled_urls, [`${site.origin}/one`]);
    assert.equal(done.crawl_count, 1);
    assert.ok(!('crawl_config' in done)); // the body's settings were for that run only
  });

  it('allows 5 crawls at once per owner, race-free, for creates and recrawls alike', async () => {
    const slow = (n: number) => ({ document_url: `${site.origin}/slow/${n}/`, crawl: { depth: 3, max_pages: 4 } });
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => t.api('POST', '/v2/documents', slow(n))));
    assert.equal(results.filter((r) => r.status === 200).length, 5);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(refused.length, 3);
    assert.match(refused[0]!.body.error, /5/);
    // Another owner is not limited by this one's crawls; files are not crawls.
    assert.equal((await t.api('POST', '/v2/documents', slow(9), { key: OTHER_KEY })).status, 200);
    assert.equal((await t.api('POST', '/v2/documents', { document_url: `${site.origin}/file.txt` })).status, 200);
    // A recrawl needs a free slot too.
    const readyOne = (await t.api('GET', '/v2/documents?status=ready&limit=100')).body.data.find((d: any) => d.crawl_config);
    offsetMs += 2 * HOUR;
    const blocked = await t.api('POST', `/v2/documents/${readyOne.document_id}/recrawl`);
    assert.equal(blocked.status, 429);
    assert.match(blocked.body.error, /too_many_concurrent_crawls/);
    // Deleting a running crawl frees its slot at once.
    const running = results.find((r) => r.status === 200)!.body.document_id;
    await t.api('DELETE', `/v2/documents/${running}`);
    assert.equal((await t.api('POST', '/v2/documents', slow(10))).status, 200);
  });

  it('holds at most 100 crawl-backed documents per owner', async () => {
    const db = t.service.deps.db;
    const otherApi = (m: string, p: string) => t.api(m, p, undefined, { key: OTHER_KEY });
    // A file of this owner, ready before the limit is reached.
    const file = await waitForDocument(
      otherApi,
      (await t.api('POST', '/v2/documents', { document_url: `${site.origin}/one` }, { key: OTHER_KEY })).body.document_id,
    );
    const { n } = await db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', 2)
      .where('crawl_config', 'is not', null)
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: 100 - Number(n) }, (_, i) => ({
      document_id: `dfill${i}`,
      owner_id: 2,
      document_name: 'filler',
      document_url: 'http://x.test/',
      status: 'ready' as const,
      crawl_config: JSON.stringify({ depth: 1, max_pages: 1 }),
      tags: '[]',
      callback_url: null,
      progress: null,
      error_message: null,
      source_kind: null,
      run_crawl_config: null,
      run_id: null,
      crawled_urls: null,
    }));
    await db.insertInto('documents').values(rows).execute();
    const over = await t.api('POST', '/v2/documents', { document_url: site.url, crawl: { depth: 0, max_pages: 1 } }, { key: OTHER_KEY });
    assert.equal(over.status, 400);
    assert.match(over.body.error, /100/);
    assert.equal((await t.api('POST', '/v2/documents', { document_url: `${site.origin}/file.txt` }, { key: OTHER_KEY })).status, 200);
    // Recrawling a file with a crawl body would make a 101st crawl-backed document.
    const recrawl = await t.api(
      'POST',
      `/v2/documents/${file.document_id}/recrawl`,
      { crawl: { depth: 0, max_pages: 1 } },
      { key: OTHER_KEY },
    );
    assert.equal(recrawl.status, 400);
    assert.match(recrawl.body.error, /crawl_document_limit.*100/);
    // With room made, the recrawled file takes the freed place and keeps it after its crawl.
    await db.deleteFrom('documents').where('document_id', '=', 'dfill0').execute();
    assert.equal(
      (await t.api('POST', `/v2/documents/${file.document_id}/recrawl`, { crawl: { depth: 0, max_pages: 1 } }, { key: OTHER_KEY })).status,
      202,
    );
    await waitForDocument(otherApi, file.document_id);
    const full = await t.api('POST', '/v2/documents', { document_url: site.url, crawl: { depth: 0, max_pages: 1 } }, { key: OTHER_KEY });
    assert.equal(full.status, 400);
    assert.match(full.body.error, /100/);
  });
});
