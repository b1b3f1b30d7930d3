// Documents from files: every supported format ingested for real, search ranking, the knowledge
// export for PALs, the CRUD surface, status callbacks and every file error code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { searchKnowledge } from '../../../../src/server/resources/documents/knowledge.js';
import { makeDocx, makePdf } from '../../../helpers/files.js';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';
import { page, startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';
import { waitFor } from '../../../helpers/wait-for.js';

const faq = [
  'Shipping. Orders leave our warehouse within two business days and arrive in three to five days by courier.',
  'Refunds. You can return any product within 30 days of delivery for a full refund of the purchase price.',
  'Warranty. Every espresso machine carries a two year warranty covering the pump, boiler and electronics.',
  'Support hours. Our support team answers the phone Monday to Friday from nine to five, Berlin time.',
]
  .map((p) => p + ' ' + 'Further details are listed in the customer handbook for each country we serve. '.repeat(6))
  .join('\n\n');

describe('documents from files', () => {
  let t: TestService;
  let site: TestSite;
  const ids: Record<string, string> = {};

  before(async () => {
    site = await startSite({
      '/faq.txt': { body: faq, type: 'text/plain' },
      '/guide.md': {
        body: '# Descaling guide\n\nRun **citric acid** through the machine every month.\n\n- Fill the tank\n- Start the [rinse](http://x/y) cycle',
        type: 'text/markdown',
      },
      '/manual.pdf': {
        body: await makePdf([
          ['Grinder manual, page one.', 'Set the burr grinder to fineness level seven for espresso.'],
          ['Page two covers cleaning the hopper.'],
        ]),
        type: 'application/pdf',
      },
      '/policy.docx': {
        body: await makeDocx(['Employee travel policy', 'Trains are preferred over planes for trips under six hours.']),
        type: 'application/octet-stream',
      },
      '/page.html': { body: page('Opening times', 'The cafe opens at seven in the morning on weekdays.', ['/a', '/b']) },
      '/hook': { body: 'ok', type: 'text/plain' },
    });
    t = await startTestService();
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  async function ingest(path: string, extra: Record<string, unknown> = {}) {
    const created = await t.api('POST', '/v2/documents', { document_url: site.origin + path, ...extra });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return waitForDocument(t.api, created.body.document_id);
  }

  it('ingests text, Markdown, PDF, DOCX and HTML files and makes them ready', async () => {
    for (const [name, path, tags] of [
      ['faq', '/faq.txt', ['support']],
      ['guide', '/guide.md', ['machines']],
      ['pdf', '/manual.pdf', ['machines']],
      ['docx', '/policy.docx', ['hr']],
      ['html', '/page.html', []],
    ] as const) {
      const doc = await ingest(path, { tags, callback_url: `${site.origin}/hook` });
      assert.equal(doc.status, 'ready', `${path}: ${doc.error_message}`);
      assert.equal(doc.progress, null);
      assert.equal(doc.error_message, undefined);
      assert.match(doc.document_id, /^d[a-z0-9]+$/);
      ids[name] = doc.document_id;
    }
  });

  it('finds the right passage first, in every format', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['faq', 'how long is the warranty on the espresso machine', /two year warranty/],
      ['faq', 'can I get a refund', /full refund/],
      ['guide', 'descaling with citric acid', /citric acid through the machine/],
      ['pdf', 'grinder fineness level', /fineness level seven/],
      ['pdf', 'cleaning the hopper', /cleaning the hopper/],
      ['docx', 'travel by train', /Trains are preferred/],
      ['html', 'when does the cafe open', /opens at seven/],
    ];
    for (const [name, query, expected] of cases) {
      const r = await t.api('POST', '/v2/documents/search', { query, limit: 3 });
      assert.equal(r.status, 200);
      const best = r.body.data[0];
      assert.equal(best.document_id, ids[name], `${query} → ${best.content.slice(0, 60)}`);
      assert.match(best.content, expected);
      assert.ok(best.score > 0 && best.score <= 1);
      assert.ok(r.body.data.every((h: any, i: number, all: any[]) => i === 0 || all[i - 1].score >= h.score));
    }
  });

  it('keeps menus, headers, footers and styles of HTML out of the knowledge', async () => {
    const r = await t.api('POST', '/v2/documents/search', {
      query: 'site header menu footer copyright',
      document_ids: [ids.html],
      limit: 10,
    });
    assert.ok(r.body.data.length > 0);
    for (const hit of r.body.data) {
      assert.doesNotMatch(hit.content, /menu text|Footer|color:red|\/a/);
      assert.equal(hit.source_url, `${site.origin}/page.html`);
    }
  });

  it('restricts search to document ids or tags, and to the caller', async () => {
    const byTag = await t.api('POST', '/v2/documents/search', { query: 'warranty', tags: ['hr'] });
    assert.ok(byTag.body.data.every((h: any) => h.document_id === ids.docx));
    const byIds = await t.api('POST', '/v2/documents/search', { query: 'warranty', document_ids: [ids.guide] });
    assert.ok(byIds.body.data.length > 0 && byIds.body.data.every((h: any) => h.document_id === ids.guide));
    const other = await t.api('POST', '/v2/documents/search', { query: 'warranty' }, { key: OTHER_KEY });
    assert.deepEqual(other.body.data, []);
    assert.equal((await t.api('POST', '/v2/documents/search', { query: '' })).status, 400);
  });

  it('exports searchKnowledge for PALs: ids OR tags, the owner only, ready documents only', async () => {
    const deps = t.service.deps;
    const hits = await searchKnowledge(deps, {
      ownerId: 1,
      documentIds: [ids.pdf!],
      documentTags: ['support'],
      query: 'warranty for the espresso machine',
      limit: 4,
    });
    assert.equal(hits[0]!.document_id, ids.faq);
    assert.match(hits[0]!.content, /two year warranty/);
    assert.deepEqual(Object.keys(hits[0]!).sort(), ['content', 'document_id', 'document_name', 'score', 'source_url']);
    assert.ok(
      new Set(hits.map((h) => h.document_id)).size === 2 && hits.every((h) => h.document_id === ids.faq || h.document_id === ids.pdf),
    );
    assert.deepEqual(
      await searchKnowledge(deps, { ownerId: 2, documentIds: [ids.faq!], documentTags: ['support'], query: 'warranty' }),
      [],
    );
    assert.deepEqual(await searchKnowledge(deps, { ownerId: 1, documentIds: [], documentTags: [], query: 'warranty' }), []);
    // A document that is not ready gives nothing.
    await deps.db
      .updateTable('documents')
      .set({ status: 'error', error_message: 'contact_support' })
      .where('document_id', '=', ids.faq!)
      .execute();
    const without = await searchKnowledge(deps, { ownerId: 1, documentIds: [ids.faq!], documentTags: [], query: 'warranty' });
    await deps.db.updateTable('documents').set({ status: 'ready', error_message: null }).where('document_id', '=', ids.faq!).execute();
    assert.deepEqual(without, []);
  });

  it('sends status callbacks started → processing → ready with the document object', async () => {
    const mine = () => site.posts.filter((p) => p.body?.document_id === ids.docx);
    await waitFor(() => mine().length >= 3, { timeout: 30_000, interval: 50 });
    const bodies = mine().map((p) => p.body);
    assert.deepEqual(bodies.map((b) => b.status).sort(), ['processing', 'ready', 'started']);
    for (const b of bodies) {
      assert.equal(b.event_type, 'document.status_changed');
      assert.equal(b.document_url, `${site.origin}/policy.docx`);
      assert.deepEqual(b.tags, ['hr']);
    }
  });

  it('gets, lists (paged, filtered by tags), patches and deletes', async () => {
    const got = await t.api('GET', `/v2/documents/${ids.pdf}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.document_name, 'manual.pdf');
    assert.equal((await t.api('GET', `/v2/documents/${ids.pdf}`, undefined, { key: OTHER_KEY })).status, 404);
    assert.equal((await t.api('GET', '/v2/documents/dmissing')).status, 404);

    const pageOne = await t.api('GET', '/v2/documents?limit=2&page=1');
    const pageThree = await t.api('GET', '/v2/documents?limit=2&page=3');
    assert.equal(pageOne.body.total_count, 5);
    assert.equal(pageOne.body.data.length, 2);
    assert.equal(pageThree.body.data.length, 1);
    const tagged = await t.api('GET', '/v2/documents?tags=machines,hr');
    assert.equal(tagged.body.total_count, 3);
    assert.deepEqual(new Set(tagged.body.data.map((d: any) => d.document_id)), new Set([ids.guide, ids.pdf, ids.docx]));
    assert.equal((await t.api('GET', '/v2/documents?limit=0')).status, 400);
    assert.equal((await t.api('GET', '/v2/documents', undefined, { key: OTHER_KEY })).body.total_count, 0);

    const patched = await t.api('PATCH', `/v2/documents/${ids.pdf}`, { document_name: 'Grinder manual', tags: ['machines', 'grinders'] });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.document_name, 'Grinder manual');
    assert.deepEqual(patched.body.tags, ['machines', 'grinders']);
    for (const bad of [{ document_name: 42 }, { status: 'ready' }, { document_url: 'http://x' }, { tags: 'x' }, { document_name: '' }]) {
      const r = await t.api('PATCH', `/v2/documents/${ids.pdf}`, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.match(r.body.error, /invalid_request/);
    }
    assert.equal((await t.api('PATCH', `/v2/documents/${ids.pdf}`, { tags: [] }, { key: OTHER_KEY })).status, 404);

    assert.equal((await t.api('DELETE', `/v2/documents/${ids.html}`, undefined, { key: OTHER_KEY })).status, 404);
    const deleted = await t.api('DELETE', `/v2/documents/${ids.html}`);
    assert.deepEqual(deleted.body, { deleted: true });
    assert.equal((await t.api('GET', `/v2/documents/${ids.html}`)).status, 404);
    const { n } = await t.service.deps.db
      .selectFrom('document_chunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('document_id', '=', ids.html!)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n), 0);
  });

  it('validates creation bodies', async () => {
    for (const bad of [
      {},
      { document_url: 42 },
      { document_url: 'http://x', tags: [1] },
      { document_url: 'http://x', callback_url: 'ftp://x' },
      { document_url: 'http://x', crawl: { depth: 6 } },
      { document_url: 'http://x', crawl: { max_pages: 0 } },
      { document_url: 'http://x', crawl: { max_pages: 501 } },
    ]) {
      const r = await t.api('POST', '/v2/documents', bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
    }
  });

  it('documents the routes in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    for (const path of ['/v2/documents', '/v2/documents/search', '/v2/documents/{document_id}', '/v2/documents/{document_id}/recrawl'])
      assert.ok(doc.paths[path], path);
    assert.ok(doc.paths['/v2/documents/{document_id}/recrawl'].post.responses['202']);
  });
});
