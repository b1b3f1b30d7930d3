import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startListeningService, type TestService } from '../../helpers/service.js';

describe('service foundation', () => {
  let t: TestService;
  before(async () => {
    t = await startListeningService();
  });
  after(() => t.close());

  it('answers its root URL with a page naming the service and linking the reference, with the page headers', async () => {
    const r = await fetch(`${t.url}/`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
    const html = await r.text();
    assert.match(html, /<h1>palkit service<\/h1>/);
    assert.match(html, /href="\/docs"/);
    assert.match(html, /href="\/openapi.json"/);
    assert.match(r.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  });

  it('answers /healthz', async () => {
    const r = await t.api('GET', '/healthz', undefined, { key: null });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { ok: true });
  });

  it('refuses keyed routes without a key or with a wrong one, with a message body', async () => {
    const none = await t.api('GET', '/v2/memory-stores', undefined, { key: null });
    assert.equal(none.status, 401);
    assert.equal(typeof none.body.message, 'string');
    assert.equal(none.body.error, undefined);
    const wrong = await t.api('GET', '/v2/memory-stores', undefined, { key: 'nope' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.message, 'Invalid access token');
  });

  it('checks the key before validating the body', async () => {
    const r = await t.api('POST', '/v2/memory-stores', { memory_store_id: 'BAD' }, { key: null });
    assert.equal(r.status, 401);
  });

  it('answers unknown routes with 404 and an error body', async () => {
    const r = await t.api('GET', '/v2/nothing-here');
    assert.equal(r.status, 404);
    assert.match(r.body.error, /not_found/);
  });

  it('rejects malformed JSON with 400', async () => {
    const r = await t.api('POST', '/v2/memory-stores', '{"name": ', {});
    assert.equal(r.status, 400);
    assert.match(r.body.error, /malformed_json/);
  });

  it('rejects wrong types with 400 naming the field', async () => {
    const r = await t.api('POST', '/v2/memory-stores', { name: 42 });
    assert.equal(r.status, 400);
    assert.match(r.body.error, /name/);
  });

  it('rejects bodies over the limit with 413', async () => {
    const r = await t.api('POST', '/v2/memory-stores', { name: 'x'.repeat(1_100_000) });
    assert.equal(r.status, 413);
    assert.match(r.body.error, /payload_too_large/);
  });

  it('serves an OpenAPI 3.1 document with the API key scheme, and a reference page', async () => {
    const doc = await t.api('GET', '/openapi.json', undefined, { key: null });
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    assert.ok(doc.body.paths['/v2/memory-stores/{memory_store_id}/pinned'].post);
    assert.deepEqual(doc.body.components.securitySchemes.ApiKey, { type: 'apiKey', in: 'header', name: 'x-api-key' });
    const page = await fetch(t.url + '/docs');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /palkit API reference/);
  });

  it('every keyed route in the OpenAPI document answers 401 without a key', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.security && op.security.length === 0) continue;
        const concrete = path.replace(/\{[^}]+\}/g, 'mabc123');
        const r = await t.api(method.toUpperCase(), concrete, method === 'get' || method === 'delete' ? undefined : {}, { key: null });
        assert.equal(r.status, 401, `${method} ${path}`);
        checked++;
      }
    }
    assert.ok(checked >= 8);
  });
});
