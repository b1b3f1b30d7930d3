// Crawling a real multi-page site on loopback: depth and max_pages cut exactly, robots.txt honoured,
// duplicates collapsed, other sites and non-pages left alone, the politeness delay kept.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { page, startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';

describe('website crawl', () => {
  let t: TestService;
  let site: TestSite;
  let other: TestSite;

  before(async () => {
    other = await startSite({ '/': { body: page('Elsewhere', 'Another site.') } });
    // Level 0: /; level 1: /a /b /c (and a disallowed /private, a redirect to /a, a PDF, JSON);
    // level 2: /a/1 /a/2 /b/1; level 3: /a/1/x.
    site = await startSite({
      '/robots.txt': {
        body: 'User-agent: *\nDisallow: /\n\nUser-agent: palkit\nDisallow: /private\nAllow: /private/public-note\n',
        type: 'text/plain',
      },
      '/': {
        body: page('Home', 'Welcome to the bakery site.', [
          '/a',
          '/b#top',
          '/b',
          '/c?y=2&x=1',
          '/c?x=1&y=2',
          '/private',
          '/alias-of-a',
          '/menu.pdf',
          '/data',
          other.url,
          'mailto:hi@bakery.test',
        ]),
      },
      '/a': { body: page('Bread', 'We bake sourdough bread daily.', ['/a/1', '/a/2', '/', '/a#again']) },
      '/b': { body: page('Cakes', 'Cakes are made to order.', ['/b/1', '/private/public-note']) },
      '/c?x=1&y=2': { body: page('Contact', 'Call us at the shop.') },
      '/private': { body: page('Private', 'Secret recipes.') },
      '/private/public-note': { body: page('Note', 'A public note inside private.') },
      '/alias-of-a': { status: 301, headers: { location: '/a' } },
      '/menu.pdf': { body: '%PDF-1.4', type: 'application/pdf' },
      '/data': { body: '{"json":true}', type: 'application/json' },
      '/a/1': { body: page('Rye', 'Rye bread with caraway.', ['/a/1/x']) },
      '/a/2': { body: page('Spelt', 'Spelt loaves on Fridays.') },
      '/b/1': { body: page('Cheesecake', 'Baked cheesecake.') },
      '/a/1/x': { body: page('Deep', 'Three levels down.') },
    });
    t = await startTestService({ PALKIT_CRAWL_DELAY_MS: '0' });
  });
  after(async () => {
    await t.close();
    await site.close();
    await other.close();
  });

  async function crawl(depth: number, maxPages: number) {
    site.requests.length = 0;
    const created = await t.api('POST', '/v2/documents', { document_url: site.url, crawl: { depth, max_pages: maxPages } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.crawl_config, { depth, max_pages: maxPages });
    const doc = await waitForDocument(t.api, created.body.document_id);
    assert.equal(doc.status, 'ready', doc.error_message);
    return { doc, paths: (doc.crawled_urls as string[]).map((u) => u.slice(site.origin.length)) };
  }

  it('depth 0 takes the start page only', async () => {
    const { doc, paths } = await crawl(0, 50);
    assert.deepEqual(paths, ['/']);
    assert.equal(doc.crawl_count, 1);
    assert.ok(doc.last_crawled_at);
  });

  it('depth 1 takes the pages linked from the start, de-duplicated, robots.txt obeyed, non-pages and other sites skipped', async () => {
    const { paths } = await crawl(1, 50);
    assert.deepEqual(paths, ['/', '/a', '/b', '/c?x=1&y=2']);
    assert.ok(!site.requests.includes('/private'), 'disallowed page was fetched');
    assert.ok(!site.requests.includes('/menu.pdf'), 'a PDF link was fetched as a page');
    assert.equal(site.requests.filter((p) => p === '/a').length, 1);
    assert.equal(site.requests.filter((p) => p === '/b').length, 1);
    assert.equal(site.requests.filter((p) => p.startsWith('/c')).length, 1);
    assert.ok(site.requests.includes('/data')); // fetched, found not to be HTML, left out
    assert.equal(other.requests.length, 0);
    assert.equal(site.requests[0], '/robots.txt');
  });

  it('depth 2 and 3 go further down, with the Allow inside a disallowed folder honoured', async () => {
    assert.deepEqual((await crawl(2, 50)).paths, ['/', '/a', '/b', '/c?x=1&y=2', '/a/1', '/a/2', '/b/1', '/private/public-note']);
    assert.deepEqual((await crawl(3, 50)).paths, ['/', '/a', '/b', '/c?x=1&y=2', '/a/1', '/a/2', '/b/1', '/private/public-note', '/a/1/x']);
  });

  it('max_pages cuts the crawl exactly, in breadth-first order', async () => {
    assert.deepEqual((await crawl(3, 1)).paths, ['/']);
    assert.deepEqual((await crawl(3, 3)).paths, ['/', '/a', '/b']);
    const { paths } = await crawl(3, 6);
    assert.deepEqual(paths, ['/', '/a', '/b', '/c?x=1&y=2', '/a/1', '/a/2']);
    assert.ok(!site.requests.includes('/a/1/x'));
  });

  it('makes every crawled page searchable, with its page as the source', async () => {
    const { doc } = await crawl(2, 50);
    const r = await t.api('POST', '/v2/documents/search', { query: 'rye bread caraway', document_ids: [doc.document_id] });
    assert.equal(r.body.data[0].source_url, `${site.origin}/a/1`);
    assert.match(r.body.data[0].content, /Rye bread with caraway/);
    const menus = await t.api('POST', '/v2/documents/search', { query: 'mailto bakery', document_ids: [doc.document_id], limit: 50 });
    for (const hit of menus.body.data) assert.doesNotMatch(hit.content, /\/alias-of-a|Footer copyright/);
  });

  it('keeps the politeness delay between requests to the site', async () => {
    const polite = await startTestService({ PALKIT_CRAWL_DELAY_MS: '120' });
    try {
      site.requests.length = 0;
      site.times.length = 0;
      const created = await polite.api('POST', '/v2/documents', { document_url: site.url, crawl: { depth: 1, max_pages: 4 } });
      const doc = await waitForDocument(polite.api, created.body.document_id);
      assert.equal(doc.crawled_urls.length, 4);
      const gaps = site.times.slice(1).map((time, i) => time - site.times[i]!);
      assert.ok(gaps.length >= 4);
      for (const gap of gaps) assert.ok(gap >= 100, `requests ${gap} ms apart`);
    } finally {
      await polite.close();
    }
  });
});
