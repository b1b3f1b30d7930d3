// Keyed deployment management: create, read with ETag, list, JSON Patch with If-Match, delete.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFace, createPal } from '../../../helpers/fixtures.js';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';

describe('deployments (keyed)', () => {
  let t: TestService;
  let palId: string;
  let faceId: string;
  before(async () => {
    t = await startTestService();
    ({ palId, faceId } = (await createPal(t, { pal_name: 'Greeter' })) as { palId: string; faceId: string });
  });
  after(() => t.close());

  const create = (body: Record<string, unknown>) => t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'widget', ...body });

  it('creates a draft deployment with the face thumbnails, never returning the password', async () => {
    const r = await create({
      name: 'Site widget',
      password: 's3cret',
      customization: { theme: 'dark', widget: { variant: 'tiny' }, extra: { kept: true } },
      limits: { max_call_duration: 300, captcha_enabled: false },
      allowed_origins: ['https://Shop.Example.com', 'http://localhost:3000'],
    });
    assert.equal(r.status, 200);
    assert.match(r.body.deployment_id, /^d[a-z0-9]+$/);
    assert.equal(r.body.status, 'draft');
    assert.equal(r.body.pal_id, palId);
    assert.equal(r.body.channel, 'widget');
    assert.equal(r.body.name, 'Site widget');
    assert.equal(r.body.has_password, true);
    assert.deepEqual(r.body.customization, { theme: 'dark', widget: { variant: 'tiny' }, extra: { kept: true } });
    assert.deepEqual(r.body.limits, { max_call_duration: 300, captcha_enabled: false });
    assert.deepEqual(r.body.allowed_origins, ['https://shop.example.com', 'http://localhost:3000']);
    assert.equal(r.body.thumbnail_video_url, `https://cdn.example.com/${faceId}.mp4`);
    assert.equal(r.body.thumbnail_image_url, `https://cdn.example.com/${faceId}.jpg`);
    assert.equal(r.body.usage_total, 0);
    assert.equal(r.body.usage_today, 0);
    assert.ok(!('replica_thumbnail_video_url' in r.body));
    assert.ok(!JSON.stringify(r.body).includes('s3cret'));
    assert.ok(!('password' in r.body) && !('password_hash' in r.body));
    assert.match(r.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(r.headers.get('etag'));
    const stored = await t.service.deps.db
      .selectFrom('deployments')
      .select('password_hash')
      .where('deployment_id', '=', r.body.deployment_id)
      .executeTakeFirstOrThrow();
    assert.match(stored.password_hash!, /^scrypt\$/);
  });

  it('keeps a callback_url for the conversations its visitors start (palkit extension)', async () => {
    const r = await create({ callback_url: 'https://hooks.example.com/palkit' });
    assert.equal(r.status, 200);
    assert.equal(r.body.callback_url, 'https://hooks.example.com/palkit');
    assert.equal((await create({})).body.callback_url, null);
    assert.equal((await create({ callback_url: 'ftp://hooks.example.com' })).status, 400);
    const id = r.body.deployment_id;
    const patched = await t.api('PATCH', `/v2/deployments/${id}`, [
      { op: 'replace', path: '/callback_url', value: 'https://hooks.example.com/v2' },
      { op: 'replace', path: '/status', value: 'active' },
    ]);
    assert.equal(patched.status, 200);
    assert.equal(patched.body.callback_url, 'https://hooks.example.com/v2');
    const started = await t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.callback_url, 'https://hooks.example.com/v2');
    const conversation = await t.api('GET', `/v2/conversations/${started.body.conversation_id}`);
    assert.equal(conversation.body.callback_url, 'https://hooks.example.com/v2');
  });

  it('refuses bad bodies with 400 naming the field (never 500)', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ pal_id: undefined }, /pal_id/],
      [{ channel: undefined }, /channel/],
      [{ channel: 'billboard' }, /channel/],
      [{ pal_id: 'pnothere' }, /pal_id/],
      [{ customization: 'dark' }, /customization/],
      [{ customization: [1, 2] }, /customization/],
      [{ customization: { theme: 'neon' } }, /customization\.theme/],
      [{ customization: { radius: 'big' } }, /customization\.radius/],
      [{ customization: { blob: 'x'.repeat(70 * 1024) } }, /customization/],
      [{ limits: { max_call_duration: -5 } }, /limits\.max_call_duration/],
      [{ limits: { daily_call_limit: 1.5 } }, /limits\.daily_call_limit/],
      [{ limits: { calls_per_fortnight: 3 } }, /limits/],
      [{ limits: { captcha_enabled: 'yes' } }, /limits\.captcha_enabled/],
      [{ allowed_origins: ['example.com'] }, /allowed_origins/],
      [{ allowed_origins: ['https://example.com/path'] }, /allowed_origins/],
      [{ allowed_origins: ['https://example.com/'] }, /allowed_origins/],
      [{ allowed_origins: ['ftp://example.com'] }, /allowed_origins/],
      [{ allowed_origins: 'https://example.com' }, /allowed_origins/],
      [{ password: '' }, /password/],
      [{ password: 42 }, /password/],
      [{ name: 7 }, /name/],
      [{ status: 'active' }, /status|Unrecognized/i],
    ];
    for (const [body, pattern] of cases) {
      const r = await create(body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 100));
      assert.match(r.body.error, pattern, JSON.stringify(body).slice(0, 100));
    }
    const foreign = await createPal(t, { owner: 2 });
    const r = await create({ pal_id: foreign.palId });
    assert.equal(r.status, 400);
    assert.match(r.body.error, /pal_id/);
    assert.equal((await t.api('POST', '/v2/deployments', '{"pal_id":', {})).status, 400);
    assert.equal((await t.api('POST', '/v2/deployments', [])).status, 400);
  });

  it('requires the API key', async () => {
    const r = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'embed' }, { key: null });
    assert.equal(r.status, 401);
    assert.equal(typeof r.body.message, 'string');
  });

  it("gets one with an ETag, hides other owners' deployments, lists with paging, deletes", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ name: `page ${i}`, channel: 'embed' })).body.deployment_id);
    const one = await t.api('GET', `/v2/deployments/${ids[0]}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.name, 'page 0');
    assert.match(one.headers.get('etag')!, /^"[^"]+"$/);
    assert.equal((await t.api('GET', `/v2/deployments/${ids[0]}`, undefined, { key: OTHER_KEY })).status, 404);
    assert.deepEqual((await t.api('GET', '/v2/deployments/dmissing1')).body, { error: 'deployment_not_found' });
    assert.equal((await t.api('GET', '/v2/deployments/NOT-AN-ID')).status, 400);

    const page1 = await t.api('GET', '/v2/deployments?limit=2&page=1');
    const page2 = await t.api('GET', '/v2/deployments?limit=2&page=2');
    assert.equal(page1.status, 200);
    assert.equal(page1.body.data.length, 2);
    assert.ok(page1.body.total_count >= 4);
    const seen = [...page1.body.data, ...page2.body.data].map((d: { deployment_id: string }) => d.deployment_id);
    assert.equal(new Set(seen).size, seen.length);
    assert.equal(page1.body.data[0].deployment_id, ids[2], 'newest first');
    assert.equal((await t.api('GET', '/v2/deployments', undefined, { key: OTHER_KEY })).body.total_count, 0);
    assert.equal((await t.api('GET', '/v2/deployments?limit=0')).status, 400);
    assert.equal((await t.api('GET', '/v2/deployments?page=abc')).status, 400);

    assert.equal((await t.api('DELETE', `/v2/deployments/${ids[1]}`, undefined, { key: OTHER_KEY })).status, 404);
    const del = await t.api('DELETE', `/v2/deployments/${ids[1]}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { deleted: true });
    assert.equal((await t.api('GET', `/v2/deployments/${ids[1]}`)).status, 404);
    assert.equal((await t.api('DELETE', `/v2/deployments/${ids[1]}`)).status, 404);
  });

  describe('PATCH (JSON Patch)', () => {
    let id: string;
    before(async () => {
      id = (await create({ name: 'Patch me', customization: { theme: 'light' }, limits: { daily_call_limit: 5 } })).body.deployment_id;
    });
    const patch = (ops: unknown, headers: Record<string, string> = {}) => t.api('PATCH', `/v2/deployments/${id}`, ops, { headers });

    it('applies replace/add/remove/test and bumps the ETag', async () => {
      const before = await t.api('GET', `/v2/deployments/${id}`);
      const r = await patch(
        [
          { op: 'test', path: '/name', value: 'Patch me' },
          { op: 'replace', path: '/name', value: 'Patched' },
          { op: 'add', path: '/customization/accent_color', value: '#ff0066' },
          { op: 'remove', path: '/limits/daily_call_limit' },
          { op: 'add', path: '/limits/max_concurrent_calls', value: 2 },
          { op: 'add', path: '/allowed_origins/-', value: 'https://a.example' },
          { op: 'replace', path: '/status', value: 'active' },
        ],
        { 'if-match': before.headers.get('etag')! },
      );
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.name, 'Patched');
      assert.equal(r.body.status, 'active');
      assert.deepEqual(r.body.customization, { theme: 'light', accent_color: '#ff0066' });
      assert.deepEqual(r.body.limits, { max_concurrent_calls: 2 });
      assert.deepEqual(r.body.allowed_origins, ['https://a.example']);
      assert.notEqual(r.headers.get('etag'), before.headers.get('etag'));
      assert.equal((await t.api('GET', `/v2/deployments/${id}`)).headers.get('etag'), r.headers.get('etag'));
    });

    it('moves status between draft, active and inactive, and refuses other values', async () => {
      for (const status of ['inactive', 'draft', 'active']) {
        const r = await patch([{ op: 'replace', path: '/status', value: status }]);
        assert.equal(r.status, 200);
        assert.equal(r.body.status, status);
      }
      const bad = await patch([{ op: 'replace', path: '/status', value: 'paused' }]);
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /status/);
    });

    it('answers 412 for a stale If-Match and accepts *, weak and listed ETags', async () => {
      const current = (await t.api('GET', `/v2/deployments/${id}`)).headers.get('etag')!;
      await patch([{ op: 'replace', path: '/name', value: 'v-next' }]);
      const stale = await patch([{ op: 'replace', path: '/name', value: 'lost update' }], { 'if-match': current });
      assert.equal(stale.status, 412);
      assert.match(stale.body.error, /precondition_failed/);
      assert.equal((await t.api('GET', `/v2/deployments/${id}`)).body.name, 'v-next');
      const fresh = (await t.api('GET', `/v2/deployments/${id}`)).headers.get('etag')!;
      assert.equal((await patch([{ op: 'replace', path: '/name', value: 'weak' }], { 'if-match': `W/${fresh}` })).status, 200);
      assert.equal((await patch([{ op: 'replace', path: '/name', value: 'star' }], { 'if-match': '*' })).status, 200);
      const latest = (await t.api('GET', `/v2/deployments/${id}`)).headers.get('etag')!;
      assert.equal((await patch([{ op: 'replace', path: '/name', value: 'list' }], { 'if-match': `"nope", ${latest}` })).status, 200);
    });

    it('lets exactly one of two concurrent patches with the same If-Match win', async () => {
      const etag = (await t.api('GET', `/v2/deployments/${id}`)).headers.get('etag')!;
      const results = await Promise.all([
        patch([{ op: 'replace', path: '/name', value: 'first' }], { 'if-match': etag }),
        patch([{ op: 'replace', path: '/name', value: 'second' }], { 'if-match': etag }),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 412]);
    });

    it('sets and clears the password through /password', async () => {
      let r = await patch([{ op: 'add', path: '/password', value: 'open sesame' }]);
      assert.equal(r.status, 200);
      assert.equal(r.body.has_password, true);
      assert.ok(!JSON.stringify(r.body).includes('open sesame'));
      r = await patch([{ op: 'remove', path: '/password' }]);
      assert.equal(r.body.has_password, false);
      r = await patch([{ op: 'replace', path: '/password', value: 'again' }]);
      assert.equal(r.body.has_password, true);
      r = await patch([{ op: 'replace', path: '/password', value: null }]);
      assert.equal(r.body.has_password, false);
      for (const ops of [
        [{ op: 'add', path: '/password', value: '' }],
        [{ op: 'add', path: '/password', value: 5 }],
        [{ op: 'test', path: '/password', value: 'x' }],
        [{ op: 'copy', from: '/password', path: '/name' }],
      ]) {
        const bad = await patch(ops);
        assert.equal(bad.status, 400, JSON.stringify(ops));
      }
    });

    it('refuses read-only fields, malformed patches and results that are not a valid deployment', async () => {
      const before = (await t.api('GET', `/v2/deployments/${id}`)).body;
      const cases: Array<[unknown, RegExp]> = [
        [[{ op: 'replace', path: '/deployment_id', value: 'dother' }], /deployment_id.*read-only/],
        [[{ op: 'replace', path: '/usage_total', value: 0 }], /usage_total.*read-only/],
        [[{ op: 'replace', path: '/usage_today', value: 0 }], /usage_today/],
        [[{ op: 'replace', path: '/created_at', value: 'x' }], /created_at/],
        [[{ op: 'replace', path: '/has_password', value: false }], /has_password/],
        [[{ op: 'replace', path: '/thumbnail_image_url', value: 'x' }], /thumbnail_image_url/],
        [[{ op: 'move', from: '/usage_total', path: '/name' }], /usage_total/],
        [[{ op: 'replace', path: '', value: {} }], /whole deployment/],
        [[{ op: 'replace', path: '/nope', value: 1 }], /does not exist/],
        [[{ op: 'remove', path: '/name' }], /name/],
        [[{ op: 'add', path: '/surprise', value: 1 }], /surprise|Unrecognized/],
        [[{ op: 'replace', path: '/channel', value: 'tv' }], /channel/],
        [[{ op: 'replace', path: '/customization', value: 'dark' }], /customization/],
        [[{ op: 'replace', path: '/limits/max_call_duration', value: 'long' }], /limits/],
        [[{ op: 'add', path: '/allowed_origins/-', value: 'not an origin' }], /allowed_origins/],
        [[{ op: 'replace', path: '/pal_id', value: 'pnotmine' }], /pal_id/],
        [[{ op: 'test', path: '/name', value: 'something else' }], /test failed/],
        [[{ op: 'jump', path: '/name' }], /invalid_request/],
        [[{ op: 'replace', path: 'name', value: 'x' }], /pointer/],
        [{ op: 'replace', path: '/name', value: 'x' }, /invalid_request/],
        ['not json at all', /malformed_json|invalid_request/],
      ];
      for (const [ops, pattern] of cases) {
        const r = await patch(ops);
        assert.equal(r.status, 400, JSON.stringify(ops));
        assert.match(r.body.error, pattern, JSON.stringify(ops));
      }
      const afterAll = (await t.api('GET', `/v2/deployments/${id}`)).body;
      assert.deepEqual(afterAll, before, 'failed patches change nothing');
    });

    it('allows test on read-only fields and switching to another own PAL', async () => {
      const other = await createPal(t, {
        default_face_id: await createFace(t, { thumbnail_image_url: 'https://cdn.example.com/other.jpg' }),
      });
      const r = await patch([
        { op: 'test', path: '/usage_total', value: 0 },
        { op: 'replace', path: '/pal_id', value: other.palId },
      ]);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.pal_id, other.palId);
      assert.equal(r.body.thumbnail_image_url, 'https://cdn.example.com/other.jpg');
    });

    it('returns 404 for a missing or foreign deployment and 401 without a key', async () => {
      assert.equal((await t.api('PATCH', '/v2/deployments/dmissing', [])).status, 404);
      assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [], { key: OTHER_KEY })).status, 404);
      assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [], { key: null })).status, 401);
    });
  });

  it('documents the routes and the limits in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    for (const [path, method] of [
      ['/v2/deployments', 'post'],
      ['/v2/deployments', 'get'],
      ['/v2/deployments/{deployment_id}', 'get'],
      ['/v2/deployments/{deployment_id}', 'patch'],
      ['/v2/deployments/{deployment_id}', 'delete'],
      ['/v2/deployments/{deployment_id}/init', 'get'],
      ['/v2/deployments/{deployment_id}/start', 'post'],
    ] as const) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
      assert.ok(doc.paths[path][method].tags?.length, `${method} ${path} has tags`);
    }
    assert.deepEqual(doc.paths['/v2/deployments/{deployment_id}/init'].get.security, []);
    assert.deepEqual(doc.paths['/v2/deployments/{deployment_id}/start'].post.security, []);
    const limits = doc.components.schemas.DeploymentLimits.properties;
    for (const key of [
      'max_call_duration',
      'daily_call_limit_per_user',
      'daily_call_limit',
      'total_call_limit',
      'max_concurrent_calls',
      'captcha_enabled',
    ]) {
      assert.ok(limits[key]?.description, `limits.${key} documented`);
    }
  });
});
