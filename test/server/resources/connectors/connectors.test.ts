import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../../../src/server/platform/http/errors.js';
import { assertConnectorsExist, assertConnectorToolsExist } from '../../../../src/server/resources/connectors/validate.js';
import { databaseText } from '../../../helpers/db-text.js';
import { startMcpTestServer, type McpTestServer } from '../../../helpers/mcp-test-server.js';
import { OTHER_KEY, startTestService, type ApiResponse, type TestService } from '../../../helpers/service.js';

const TOKEN = `mcp-bearer-${randomBytes(12).toString('hex')}`;
const NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+$/;
// access_token_expires_at is a string in the spec (E20): present only while an expiring token is held.
const CONNECTOR_KEYS = [
  'auth_config',
  'connector_id',
  'created_at',
  'last_index_error',
  'last_indexed_at',
  'name',
  'oauth_scopes',
  'oauth_status',
  'owner_id',
  'selected_tool_names',
  'server_url',
  'source',
  'team_id',
  'updated_at',
];

describe('connectors', () => {
  let t: TestService;
  let mcp: McpTestServer;
  const responses: string[] = [];
  async function call(method: string, path: string, body?: unknown, options?: { key?: string | null }): Promise<ApiResponse> {
    const r = await t.api(method, path, body, options);
    responses.push(JSON.stringify(r.body));
    return r;
  }
  const create = async (extra: Record<string, unknown> = {}) => {
    const r = await call('POST', '/v2/connectors', {
      name: 'Tools',
      server_url: mcp.url,
      auth_config: { type: 'bearer', token: TOKEN },
      ...extra,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  before(async () => {
    mcp = await startMcpTestServer((token) => token === TOKEN);
    t = await startTestService();
  });
  after(async () => {
    await t.close();
    await mcp.close();
  });

  it('creates a connector with exactly the spec fields, then imports its tools in the background', async () => {
    const c = await create();
    assert.deepEqual(Object.keys(c).sort(), CONNECTOR_KEYS);
    assert.match(c.connector_id, /^c[a-z0-9]+$/);
    assert.equal(c.owner_id, 1);
    assert.equal(c.team_id, null);
    assert.equal(c.name, 'Tools');
    assert.equal(c.source, 'mcp');
    assert.equal(c.server_url, mcp.url);
    assert.deepEqual(c.auth_config, { type: 'bearer' });
    assert.equal(c.selected_tool_names, null);
    assert.equal(c.oauth_status, 'none');
    assert.deepEqual(c.oauth_scopes, []);
    assert.equal('access_token_expires_at' in c, false, 'no token held: omitted, never null (E20)');
    assert.equal(c.last_indexed_at, null);
    assert.equal(c.last_index_error, null);
    assert.match(c.created_at, NO_ZONE);
    assert.match(c.updated_at, NO_ZONE);

    await t.service.deps.jobs.drain();
    const got = await call('GET', `/v2/connectors/${c.connector_id}`);
    assert.match(got.body.last_indexed_at, NO_ZONE);
    assert.equal(got.body.last_index_error, null);
    const tools = await call('GET', `/v2/connectors/${c.connector_id}/tools`);
    assert.equal(tools.status, 200);
    assert.deepEqual(
      tools.body.data.map((x: any) => x.name),
      ['get_weather', 'add', 'ping'],
    );
    assert.equal(tools.body.data[0].description, 'Current weather for a city');
    assert.equal(tools.body.data[0].input_schema.type, 'object');
    assert.deepEqual(Object.keys(tools.body.data[0].input_schema.properties), ['city']);
    assert.ok(mcp.seenTokens.includes(TOKEN), 'the MCP server received the bearer token');
  });

  it('imports on demand: POST /tools/import sets last_indexed_at; a refusing or unreachable server sets last_index_error and keeps the tools', async () => {
    const c = await create();
    await t.service.deps.jobs.drain();
    const first = await call('POST', `/v2/connectors/${c.connector_id}/tools/import`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data.length, 3);
    assert.match(first.body.last_indexed_at, NO_ZONE);

    const wrong = await call('PATCH', `/v2/connectors/${c.connector_id}`, { auth_config: { type: 'bearer', token: 'not-the-token' } });
    assert.equal(wrong.status, 200);
    await t.service.deps.jobs.drain();
    const refused = await call('POST', `/v2/connectors/${c.connector_id}/tools/import`);
    assert.equal(refused.status, 502);
    assert.match(refused.body.error, /tool_import_failed/);
    const after401 = await call('GET', `/v2/connectors/${c.connector_id}/tools`);
    assert.match(after401.body.last_index_error, /401/);
    assert.equal(after401.body.last_indexed_at, first.body.last_indexed_at, 'last_indexed_at is the last successful import');
    assert.equal(after401.body.data.length, 3, 'the previous tools stay');

    await call('PATCH', `/v2/connectors/${c.connector_id}`, {
      server_url: 'http://127.0.0.1:9/mcp',
      auth_config: { type: 'bearer', token: TOKEN },
    });
    const unreachable = await call('POST', `/v2/connectors/${c.connector_id}/tools/import`);
    assert.equal(unreachable.status, 502);
    await call('PATCH', `/v2/connectors/${c.connector_id}`, { server_url: mcp.url });
    const back = await call('POST', `/v2/connectors/${c.connector_id}/tools/import`);
    assert.equal(back.status, 200);
    assert.equal((await call('GET', `/v2/connectors/${c.connector_id}`)).body.last_index_error, null);
  });

  it('PATCH changes only the sent fields; an omitted bearer token is kept; selected_tool_names is rejected', async () => {
    const c = await create({ name: 'Before' });
    const renamed = await call('PATCH', `/v2/connectors/${c.connector_id}`, { name: 'After' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'After');
    assert.equal(renamed.body.server_url, c.server_url);
    assert.deepEqual(renamed.body.auth_config, { type: 'bearer' });
    assert.equal(renamed.body.created_at, c.created_at);
    assert.ok(renamed.body.updated_at >= c.updated_at);
    const kept = await call('PATCH', `/v2/connectors/${c.connector_id}`, { auth_config: { type: 'bearer' } });
    assert.equal(kept.status, 200);
    assert.equal((await call('POST', `/v2/connectors/${c.connector_id}/tools/import`)).status, 200, 'the stored token still works');
    for (const value of [['a'], null, []]) {
      const r = await call('PATCH', `/v2/connectors/${c.connector_id}`, { selected_tool_names: value });
      assert.equal(r.status, 400);
      assert.match(r.body.error, /selected_tool_names/);
    }
    const none = await call('PATCH', `/v2/connectors/${c.connector_id}`, { auth_config: { type: 'none' } });
    assert.deepEqual(none.body.auth_config, { type: 'none' });
    const needToken = await call('PATCH', `/v2/connectors/${c.connector_id}`, { auth_config: { type: 'bearer' } });
    assert.equal(needToken.status, 400, 'switching to bearer needs a token');
    assert.match(needToken.body.error, /token/);
    assert.equal((await call('PATCH', `/v2/connectors/${c.connector_id}`, { server_url: 'ftp://x/y' })).status, 400);
    assert.equal((await call('GET', `/v2/connectors/${c.connector_id}`)).body.name, 'After', 'a refused patch changes nothing');
  });

  it('returns the oauth2 auth_config without the client secret', async () => {
    const r = await call('POST', '/v2/connectors', {
      name: 'OAuth',
      server_url: mcp.url,
      auth_config: {
        type: 'oauth2',
        client_id: 'cid',
        client_secret: `secret-${TOKEN}`,
        authorization_url: 'https://auth.example.com/authorize',
        token_url: 'https://auth.example.com/token',
        scopes: ['a', 'b'],
      },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.auth_config, {
      type: 'oauth2',
      client_id: 'cid',
      authorization_url: 'https://auth.example.com/authorize',
      token_url: 'https://auth.example.com/token',
      scopes: ['a', 'b'],
    });
    assert.equal(r.body.oauth_status, 'pending', 'OAuth connector before its first authorization');
    const bearer = await call('PATCH', `/v2/connectors/${r.body.connector_id}`, { auth_config: { type: 'bearer', token: 'tok-abcdef' } });
    assert.equal(bearer.body.oauth_status, 'none');
    const back = await call('PATCH', `/v2/connectors/${r.body.connector_id}`, { auth_config: { type: 'oauth2', client_id: 'cid2' } });
    assert.equal(back.body.oauth_status, 'pending', 'never linked: pending, not needs_reauth');
    await call('PATCH', `/v2/connectors/${r.body.connector_id}`, {
      auth_config: {
        type: 'oauth2',
        client_id: 'cid',
        client_secret: `secret-${TOKEN}`,
        authorization_url: 'https://auth.example.com/authorize',
        token_url: 'https://auth.example.com/token',
        scopes: ['a', 'b'],
      },
    });
    const imp = await call('POST', `/v2/connectors/${r.body.connector_id}/tools/import`);
    assert.equal(imp.status, 409, 'an unlinked OAuth connector cannot import');
  });

  it('rejects invalid create bodies with 400', async () => {
    const bad: unknown[] = [
      { server_url: mcp.url },
      { name: 'x' },
      { name: 'x', server_url: 'not a url' },
      { name: 'x', server_url: 'http://example.com/mcp' },
      { name: 'x', server_url: 'ftp://example.com/mcp' },
      { name: 'x', server_url: 'https://user:pw@example.com/mcp' },
      { name: 'x', server_url: mcp.url, source: 'openapi' },
      { name: 'x', server_url: mcp.url, auth_config: { type: 'bearer' } },
      { name: 'x', server_url: mcp.url, auth_config: { type: 'basic', user: 'u' } },
      { name: 'x', server_url: mcp.url, auth_config: { type: 'oauth2' } },
      { name: 'x', server_url: mcp.url, auth_config: { type: 'oauth2', client_id: 'c', token_url: 'http://example.com/token' } },
      { name: 'x', server_url: mcp.url, selected_tool_names: ['get_weather'] },
      { name: 'x', server_url: mcp.url, selected_tool_names: null },
      { name: 'x', server_url: mcp.url, extra: 1 },
    ];
    for (const body of bad) {
      const r = await call('POST', '/v2/connectors', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(typeof r.body.error, 'string');
    }
    assert.equal((await call('POST', '/v2/connectors', { name: 'x', server_url: mcp.url }, { key: null })).status, 401);
    const https = await call('POST', '/v2/connectors', {
      name: 'x',
      server_url: 'https://mcp.example.com/mcp',
      auth_config: { type: 'none' },
    });
    assert.equal(https.status, 200);
    assert.deepEqual(https.body.auth_config, { type: 'none' });
  });

  it('accepts plain http only for loopback the service may reach', async () => {
    const strict = await startTestService({ PALKIT_OUTBOUND_ALLOW: '' });
    try {
      const r = await strict.api('POST', '/v2/connectors', { name: 'x', server_url: mcp.url, auth_config: { type: 'none' } });
      assert.equal(r.status, 400);
      assert.match(r.body.error, /server_url/);
      assert.equal(
        (await strict.api('POST', '/v2/connectors', { name: 'x', server_url: 'https://127.0.0.1/mcp', auth_config: { type: 'none' } }))
          .status,
        200,
      );
    } finally {
      await strict.close();
    }
  });

  it('lists, reads and deletes with 403/404/400 where due', async () => {
    const u = await startTestService();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await u.api('POST', '/v2/connectors', { name: `c${i}`, server_url: 'https://mcp.example.com/mcp' })).body.connector_id);
      const list = await u.api('GET', '/v2/connectors?limit=2');
      assert.equal(list.body.total_count, 3);
      assert.deepEqual(
        list.body.data.map((c: any) => c.name),
        ['c2', 'c1'],
      );
      assert.deepEqual(
        (await u.api('GET', '/v2/connectors?limit=2&page=2')).body.data.map((c: any) => c.name),
        ['c0'],
      );
      assert.equal((await u.api('GET', '/v2/connectors', undefined, { key: OTHER_KEY })).body.total_count, 0);
      assert.equal((await u.api('GET', `/v2/connectors/${ids[0]}`, undefined, { key: OTHER_KEY })).status, 403);
      assert.equal((await u.api('PATCH', `/v2/connectors/${ids[0]}`, { name: 'x' }, { key: OTHER_KEY })).status, 403);
      assert.equal((await u.api('DELETE', `/v2/connectors/${ids[0]}`, undefined, { key: OTHER_KEY })).status, 403);
      assert.equal((await u.api('GET', `/v2/connectors/${ids[0]}/tools`, undefined, { key: OTHER_KEY })).status, 403);
      assert.equal((await u.api('GET', '/v2/connectors/cmissing123')).status, 404);
      assert.equal((await u.api('GET', '/v2/connectors/BAD!')).status, 400);
      assert.equal((await u.api('POST', '/v2/connectors/cmissing123/tools/import')).status, 404);
      assert.equal((await u.api('GET', '/v2/connectors?limit=500')).status, 400);

      const db = u.service.deps.db;
      await db
        .insertInto('pals')
        .values({
          pal_id: 'pmcp',
          owner_id: 1,
          pal_name: 'p',
          definition: JSON.stringify({
            layers: { mcp: { connectors: [ids[0], ids[1]], connector_tools: { [ids[0]!]: ['ping'], [ids[1]!]: ['add'] } } },
          }),
        })
        .execute();
      const del = await u.api('DELETE', `/v2/connectors/${ids[0]}`);
      assert.equal(del.status, 200);
      assert.deepEqual(del.body, { deleted: true });
      assert.equal((await u.api('GET', `/v2/connectors/${ids[0]}`)).status, 404);
      assert.equal((await u.api('DELETE', `/v2/connectors/${ids[0]}`)).status, 404);
      const pal = await db.selectFrom('pals').select('definition').where('pal_id', '=', 'pmcp').executeTakeFirstOrThrow();
      assert.deepEqual(pal.definition, { layers: { mcp: { connectors: [ids[1]], connector_tools: { [ids[1]!]: ['add'] } } } });
    } finally {
      await u.close();
    }
  });

  it('assertConnectorsExist and assertConnectorToolsExist answer 400 for unknown references', async () => {
    const db = t.service.deps.db;
    const c = await create();
    await call('POST', `/v2/connectors/${c.connector_id}/tools/import`);
    const fresh = (await call('POST', '/v2/connectors', { name: 'never imported', server_url: 'https://mcp.example.com/mcp' })).body
      .connector_id;
    await assertConnectorsExist(db, 1, [c.connector_id, c.connector_id]);
    await assertConnectorsExist(db, 1, []);
    const is400 = (re: RegExp) => (e: unknown) => e instanceof ApiError && e.status === 400 && re.test(e.message);
    await assert.rejects(assertConnectorsExist(db, 1, [c.connector_id, 'cnope']), is400(/cnope/));
    await assert.rejects(assertConnectorsExist(db, 2, [c.connector_id]), is400(new RegExp(c.connector_id)));
    await assertConnectorToolsExist(db, 1, { [c.connector_id]: ['ping', 'add'], [fresh]: ['anything'] });
    await assert.rejects(assertConnectorToolsExist(db, 1, { [c.connector_id]: ['ping', 'rm_rf'] }), is400(/rm_rf/));
    await assert.rejects(assertConnectorToolsExist(db, 1, { cnope: [] }), is400(/cnope/));
  });

  it('never returns or stores a secret in clear', async () => {
    await t.service.deps.jobs.drain();
    assert.ok(responses.length > 20);
    for (const text of responses) assert.ok(!text.includes(TOKEN), `response leaked the token: ${text.slice(0, 200)}`);
    const everything = await databaseText(t.service.deps.db);
    assert.ok(everything.includes('connectors') || everything.length > 0);
    assert.ok(!everything.includes(TOKEN), 'the bearer token is stored in clear somewhere');
    assert.ok(!everything.includes('not-the-token'));
    const row = await t.service.deps.db
      .selectFrom('connectors')
      .select('bearer_token_enc')
      .where('bearer_token_enc', 'is not', null)
      .executeTakeFirstOrThrow();
    assert.equal(t.service.deps.secrets.decrypt(row.bearer_token_enc!), TOKEN, 'it is stored encrypted');
  });

  it('documents every connector route in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    assert.ok(doc.paths['/v2/connectors'].post && doc.paths['/v2/connectors'].get);
    for (const m of ['get', 'patch', 'delete']) assert.ok(doc.paths['/v2/connectors/{connector_id}'][m], m);
    assert.ok(doc.paths['/v2/connectors/{connector_id}/tools/import'].post);
    assert.ok(doc.paths['/v2/connectors/{connector_id}/tools'].get);
    assert.ok(doc.paths['/v2/connectors/{connector_id}/authorize'].post);
    assert.ok(doc.paths['/v2/connectors/{connector_id}/reconnect'].post);
    assert.deepEqual(doc.paths['/v2/connectors/oauth/callback'].get.security, []);
  });
});
