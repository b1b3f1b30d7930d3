// The demo site's backend routes (/demo/api/*) hand out transcripts and visitor context and push cards:
// only to pages opened from the links the run printed (their demo_key becomes a cookie) or with the
// x-demo-key header (issue 34, item 9). The callback receiver stays open to the service's signed posts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/server/platform/config.js';
import { createService, type Service } from '../../../src/server/app/service.js';
import { resourceModules } from '../../../src/server/app/modules.js';
import { addApiKey } from '../../../src/server/platform/http/auth.js';
import { demoSiteModule, type DemoSiteState } from '../../../demo/site-module.js';
import { DEMO_OWNER } from '../../../demo/seed.js';
import { migratedPgliteImage } from '../../helpers/pglite-image.js';

const DEMO_KEY = 'k3y-of-this-run-0123456789';

describe('the demo site backend', () => {
  let service: Service;
  before(async () => {
    const site: DemoSiteState = { key: 'pk_demo_unused', state: undefined, demoKey: DEMO_KEY };
    service = await createService(loadConfig({ PALKIT_DATA: 'memory', PALKIT_LOG: 'silent' }, 0), {
      modules: [...resourceModules, demoSiteModule(site)],
      runJobs: false,
      pgliteImage: await migratedPgliteImage(), // the migrated database, not initdb again
    });
    await addApiKey(service.deps.db, site.key, DEMO_OWNER, 'demo');
  });
  after(() => service?.close());
  const request = (path: string, init?: RequestInit) => service.app.request(path, init);

  it("refuses every backend route without this run's key", async () => {
    for (const [method, path] of [
      ['GET', '/demo/api/callbacks'],
      ['GET', '/demo/api/conversations'],
      ['POST', '/demo/api/conversation'],
      ['POST', '/demo/api/push'],
    ] as const) {
      const body = method === 'POST' ? JSON.stringify({ conversation_id: 'c1', message: {} }) : undefined;
      for (const headers of [{}, { 'x-demo-key': 'wrong' }, { cookie: 'palkit_demo=wrong' }] as Array<Record<string, string>>) {
        const r = await request(path, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body ? { body } : {}) });
        assert.equal(r.status, 403, `${method} ${path} ${JSON.stringify(headers)}`);
        assert.match((await r.json()).error, /^demo_key_required/);
      }
    }
  });

  it('answers with the key as a header, or as the cookie a printed link sets', async () => {
    assert.equal((await request('/demo/api/callbacks', { headers: { 'x-demo-key': DEMO_KEY } })).status, 200);
    assert.equal((await request('/demo/config.js?demo_key=wrong')).headers.get('set-cookie'), null);
    const page = await request(`/demo/operator.html?demo_key=${DEMO_KEY}`);
    assert.equal(page.status, 200);
    const cookie = page.headers.get('set-cookie') ?? '';
    assert.match(cookie, /palkit_demo=.*HttpOnly.*SameSite=Strict/i);
    const r = await request('/demo/api/callbacks', { headers: { cookie: cookie.split(';')[0]! } });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { data: [] });
  });

  it('keeps the callback receiver open to the service', async () => {
    const r = await request('/demo/api/callbacks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(r.status, 200);
  });
});
