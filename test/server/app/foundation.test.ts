import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startListeningService, startTestService, type TestService } from '../../helpers/service.js';

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

  it('fails its start on a port another holds, rather than running on answering nothing', async () => {
    const second = await startTestService();
    try {
      await assert.rejects(second.service.listen(Number(new URL(t.url).port), '127.0.0.1'), { code: 'EADDRINUSE' });
    } finally {
      await second.close();
    }
  });

  it('answers /healthz', async () => {
    const r = await t.api('GET', '/healthz', undefined, { key: null });
    assert.equal(r.status, 200);
    assert.equal(r.body.ok, true);
    // From source the version is the package's marked -dev (a build carries its commit: install.test.ts).
    assert.match(r.body.version, /^\d+\.\d+\.\d+-dev$/);
    assert.equal(r.body.instance, t.service.deps.instanceId);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    assert.match(
      metrics,
      new RegExp(`^palkit_build_info\\{version="${r.body.version.replace(/[.]/g, '\\.')}",instance="${r.body.instance}"\\} 1$`, 'm'),
    );
    for (const idle of [
      'palkit_instance_rooms',
      'palkit_instance_participants',
      'palkit_instance_relayed_participants',
      'palkit_voice_queue_sentences',
    ]) {
      assert.match(metrics, new RegExp(`^${idle} 0$`, 'm'));
    }
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

  it('a body the API refuses when empty shows in the OpenAPI document what it requires', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    const resolve = (schema: any) => (schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema);
    const requires = (schema: any): boolean => {
      const s = resolve(schema);
      return (
        Boolean(s) && ((s.required?.length ?? 0) > 0 || ['allOf', 'anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && s[k].length > 0))
      );
    };
    const silent: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      const schema = ops.post?.requestBody?.content?.['application/json']?.schema;
      if (!schema || path.includes('{')) continue;
      const r = await t.api('POST', path, {});
      checked++;
      if (r.status === 400 && !requires(schema)) silent.push(`POST ${path}: ${r.body.error}`);
    }
    assert.ok(checked >= 8, `${checked} collections checked`);
    assert.deepEqual(silent, []);
    assert.ok(requires(doc.paths['/v2/pals'].post.requestBody.content['application/json'].schema), 'POST /v2/pals names its face');
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
