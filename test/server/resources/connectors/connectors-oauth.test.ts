import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseText } from '../../../helpers/db-text.js';
import { startMcpTestServer, type McpTestServer } from '../../../helpers/mcp-test-server.js';
import { startOAuthTestServer, type OAuthTestServer } from '../../../helpers/oauth-test-server.js';
import { OTHER_KEY, startListeningService, type ApiResponse, type TestService } from '../../../helpers/service.js';
import { shiftedClock } from '../../../helpers/clock.js';

const NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+$/;

describe('connectors: OAuth 2.0', () => {
  let t: TestService;
  let as: OAuthTestServer;
  let mcp: McpTestServer;
  let offsetMs = 0;
  const clock = shiftedClock(() => offsetMs);
  const responses: string[] = [];
  const states: string[] = [];
  let connectorId = '';

  async function call(method: string, path: string, body?: unknown, options?: { key?: string | null }): Promise<ApiResponse> {
    const r = await t.api(method, path, body, options);
    responses.push(JSON.stringify(r.body));
    return r;
  }
  async function authorizeUrl(id: string, op: 'authorize' | 'reconnect' = 'authorize', body?: unknown): Promise<URL> {
    const r = await call('POST', `/v2/connectors/${id}/${op}`, body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), ['authorization_url']);
    const url = new URL(r.body.authorization_url);
    states.push(url.searchParams.get('state')!);
    return url;
  }
  /** What the user's browser does: open the authorization address, follow the redirect to the callback. */
  async function completeInBrowser(url: URL): Promise<{ status: number; text: string; location: string | null; callback: string }> {
    const atServer = await fetch(url, { redirect: 'manual' });
    assert.equal(atServer.status, 302);
    const callback = atServer.headers.get('location')!;
    assert.ok(callback.startsWith(`${t.url}/v2/connectors/oauth/callback?`), callback);
    const r = await fetch(callback, { redirect: 'manual' });
    const text = await r.text();
    responses.push(text);
    return { status: r.status, text, location: r.headers.get('location'), callback };
  }
  const connector = async (id = connectorId) => (await call('GET', `/v2/connectors/${id}`)).body;
  const createOAuth = async (serverUrl = mcp.url, extra: Record<string, unknown> = {}) => {
    const r = await call('POST', '/v2/connectors', {
      name: 'Calendar',
      server_url: serverUrl,
      auth_config: { type: 'oauth2', client_id: as.clientId, client_secret: as.clientSecret, scopes: ['tools:read'], ...extra },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.connector_id as string;
  };

  before(async () => {
    as = await startOAuthTestServer();
    mcp = await startMcpTestServer((token) => as.validAccessTokens.has(token), {
      '/.well-known/oauth-authorization-server': {
        issuer: as.origin,
        authorization_endpoint: `${as.origin}/authorize`,
        token_endpoint: `${as.origin}/token`,
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      },
    });
    t = await startListeningService({}, { clock });
  });
  after(async () => {
    await t.close();
    await mcp.close();
    await as.close();
  });

  it('authorize issues a PKCE S256 address found by discovery, and the connector becomes pending', async () => {
    connectorId = await createOAuth();
    assert.equal((await connector()).oauth_status, 'pending', 'an OAuth connector awaiting its first authorization is not none');
    const url = await authorizeUrl(connectorId);
    assert.equal(url.origin + url.pathname, `${as.origin}/authorize`);
    const q = url.searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), as.clientId);
    assert.equal(q.get('redirect_uri'), `${t.url}/v2/connectors/oauth/callback`);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(q.get('state')!.length >= 40);
    assert.equal(q.get('scope'), 'tools:read');
    assert.equal(q.get('resource'), mcp.url);
    assert.equal((await connector()).oauth_status, 'pending');
  });

  it('the public callback exchanges the code, stores the tokens and links; tools are imported', async () => {
    const url = await authorizeUrl(connectorId);
    const done = await completeInBrowser(url);
    assert.equal(done.status, 200);
    assert.match(done.text, /Connector linked/);
    const c = await connector();
    assert.equal(c.oauth_status, 'linked');
    assert.deepEqual(c.oauth_scopes, ['tools:read']);
    assert.match(c.access_token_expires_at, NO_ZONE);
    const expiresIn = new Date(c.access_token_expires_at + 'Z').getTime() - clock.now().getTime();
    assert.ok(expiresIn > 50_000 && expiresIn <= 60_000, `expires in ${expiresIn} ms`);
    assert.deepEqual(as.tokenRequests.at(-1), { grant_type: 'authorization_code', clientAuth: true });
    await t.service.deps.jobs.drain();
    const tools = await call('GET', `/v2/connectors/${connectorId}/tools`);
    assert.deepEqual(
      tools.body.data.map((x: any) => x.name),
      ['get_weather', 'add', 'ping'],
    );
    assert.match(tools.body.last_indexed_at, NO_ZONE);
    assert.ok(as.validAccessTokens.has(mcp.seenTokens.at(-1)!), 'the MCP server got an issued access token');

    const replay = await fetch(done.callback);
    assert.equal(replay.status, 400);
    assert.match((await replay.json()).error, /invalid_state/);
  });

  it('uses the token while valid and refreshes it automatically once expired', async () => {
    const before = as.tokenRequests.length;
    const oldExpiry = (await connector()).access_token_expires_at;
    assert.equal((await call('POST', `/v2/connectors/${connectorId}/tools/import`)).status, 200);
    assert.equal(as.tokenRequests.length, before, 'no refresh while the token is valid');
    const used = mcp.seenTokens.at(-1);

    offsetMs += 120_000;
    const r = await call('POST', `/v2/connectors/${connectorId}/tools/import`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(as.tokenRequests.at(-1), { grant_type: 'refresh_token', clientAuth: true });
    assert.notEqual(mcp.seenTokens.at(-1), used, 'the refreshed token was used');
    const c = await connector();
    assert.equal(c.oauth_status, 'linked');
    assert.ok(c.access_token_expires_at > oldExpiry);
  });

  it('refreshes and retries once when the server answers 401 to a token it revoked', async () => {
    as.validAccessTokens.delete(mcp.seenTokens.at(-1)!);
    const before = as.tokenRequests.length;
    const r = await call('POST', `/v2/connectors/${connectorId}/tools/import`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(as.tokenRequests.length, before + 1);
    assert.equal(as.tokenRequests.at(-1)!.grant_type, 'refresh_token');
  });

  it('turns needs_reauth when the refresh is refused', async () => {
    as.settings.refreshFails = true;
    offsetMs += 120_000;
    const r = await call('POST', `/v2/connectors/${connectorId}/tools/import`);
    assert.equal(r.status, 409);
    assert.match(r.body.error, /needs_reauth/);
    const c = await connector();
    assert.equal(c.oauth_status, 'needs_reauth');
    assert.equal('access_token_expires_at' in c, false, 'no token held: omitted, never null (E20)');
    assert.match(c.last_index_error, /needs_reauth/);
    assert.equal((await call('POST', `/v2/connectors/${connectorId}/tools/import`)).status, 409);
    as.settings.refreshFails = false;
  });

  it('Reconnect OAuth issues a new address and relinks', async () => {
    const url = await authorizeUrl(connectorId, 'reconnect');
    assert.equal((await connector()).oauth_status, 'pending');
    const done = await completeInBrowser(url);
    assert.equal(done.status, 200);
    const c = await connector();
    assert.equal(c.oauth_status, 'linked');
    assert.match(c.access_token_expires_at, NO_ZONE);
    assert.equal((await call('POST', `/v2/connectors/${connectorId}/tools/import`)).status, 200);
    assert.equal((await connector()).last_index_error, null);
  });

  it('redirects to the return_url given at authorize', async () => {
    const url = await authorizeUrl(connectorId, 'authorize', { return_url: 'https://app.example.com/done?x=1' });
    const done = await completeInBrowser(url);
    assert.equal(done.status, 302);
    const back = new URL(done.location!);
    assert.equal(back.origin + back.pathname, 'https://app.example.com/done');
    assert.equal(back.searchParams.get('x'), '1');
    assert.equal(back.searchParams.get('connector_id'), connectorId);
    assert.equal(back.searchParams.get('oauth_status'), 'linked');
    assert.equal((await call('POST', `/v2/connectors/${connectorId}/authorize`, { return_url: 'javascript:alert(1)' })).status, 400);
  });

  it('a denied or expired authorization does not link: status returns to what it was', async () => {
    as.settings.denyAuthorization = true;
    const denied = await completeInBrowser(await authorizeUrl(connectorId));
    assert.equal(denied.status, 400);
    assert.match(JSON.parse(denied.text).error, /authorization_denied: access_denied/);
    assert.equal((await connector()).oauth_status, 'linked', 'the earlier link still holds');

    const fresh = await createOAuth();
    await completeInBrowser(await authorizeUrl(fresh));
    assert.equal((await connector(fresh)).oauth_status, 'pending', 'never linked: still awaiting a first authorization, not none');

    const gone = await completeInBrowser(await authorizeUrl(connectorId, 'reconnect'));
    assert.equal(gone.status, 400);
    assert.equal((await connector()).oauth_status, 'needs_reauth', 'reconnect dropped the tokens: still needs a new grant');
    as.settings.denyAuthorization = false;

    const url = await authorizeUrl(connectorId);
    offsetMs += 11 * 60_000;
    const late = await completeInBrowser(url);
    assert.equal(late.status, 400);
    assert.match(JSON.parse(late.text).error, /state_expired/);
    assert.equal((await connector()).oauth_status, 'needs_reauth');
    assert.equal((await completeInBrowser(await authorizeUrl(connectorId))).status, 200);
    assert.equal((await connector()).oauth_status, 'linked');
  });

  it('a refused code exchange (wrong client secret) leaves the connector unlinked', async () => {
    const id = await createOAuth(mcp.url, { client_secret: 'wrong-secret' });
    const done = await completeInBrowser(await authorizeUrl(id));
    assert.equal(done.status, 400);
    assert.match(JSON.parse(done.text).error, /token_exchange_failed: invalid_client/);
    assert.equal((await connector(id)).oauth_status, 'pending');
  });

  it('answers callback and authorize errors', async () => {
    const noState = await fetch(`${t.url}/v2/connectors/oauth/callback?code=x`);
    assert.equal(noState.status, 400);
    const unknown = await fetch(`${t.url}/v2/connectors/oauth/callback?code=x&state=nothing-like-this`);
    assert.equal(unknown.status, 400);
    assert.match((await unknown.json()).error, /invalid_state/);
    const bearer = (
      await call('POST', '/v2/connectors', { name: 'b', server_url: mcp.url, auth_config: { type: 'bearer', token: 'tok-123456' } })
    ).body.connector_id;
    assert.equal((await call('POST', `/v2/connectors/${bearer}/authorize`)).status, 409);
    assert.equal((await call('POST', `/v2/connectors/${bearer}/reconnect`)).status, 409);
    assert.equal((await call('POST', `/v2/connectors/${connectorId}/authorize`, undefined, { key: OTHER_KEY })).status, 403);
    assert.equal((await call('POST', '/v2/connectors/cnothing000/authorize')).status, 404);
    assert.equal((await call('POST', `/v2/connectors/${connectorId}/authorize`, undefined, { key: null })).status, 401);
  });

  it('discovers through protected-resource metadata, uses configured endpoints, and reports failed discovery', async () => {
    const viaResource = await startMcpTestServer((token) => as.validAccessTokens.has(token), {
      '/.well-known/oauth-protected-resource': { resource: 'x', authorization_servers: [as.origin] },
    });
    const bare = await startMcpTestServer(() => false);
    try {
      const a = await createOAuth(viaResource.url);
      const url = await authorizeUrl(a);
      assert.equal(url.origin + url.pathname, `${as.origin}/authorize`);
      assert.equal((await completeInBrowser(url)).status, 200);
      assert.equal((await call('POST', `/v2/connectors/${a}/tools/import`)).status, 200);

      const b = await createOAuth(bare.url, { authorization_url: `${as.origin}/authorize`, token_url: `${as.origin}/token` });
      const configured = await authorizeUrl(b);
      assert.equal(configured.origin + configured.pathname, `${as.origin}/authorize`);
      assert.equal((await completeInBrowser(configured)).status, 200);
      assert.equal((await connector(b)).oauth_status, 'linked');

      const c = await createOAuth(bare.url);
      const failed = await call('POST', `/v2/connectors/${c}/authorize`);
      assert.equal(failed.status, 400);
      assert.match(failed.body.error, /oauth_discovery_failed/);
      assert.equal((await connector(c)).oauth_status, 'pending');
    } finally {
      await viaResource.close();
      await bare.close();
    }
  });

  it('PATCH of the OAuth client drops the link; the same settings keep it', async () => {
    const same = await call('PATCH', `/v2/connectors/${connectorId}`, {
      auth_config: { type: 'oauth2', client_id: as.clientId, scopes: ['tools:read'] },
    });
    assert.equal(same.body.oauth_status, 'linked');
    const other = await call('PATCH', `/v2/connectors/${connectorId}`, { auth_config: { type: 'oauth2', client_id: 'another-client' } });
    assert.equal(other.body.oauth_status, 'needs_reauth', 'the old grant is gone: Reconnect OAuth');
    assert.equal('access_token_expires_at' in other.body, false);
    assert.deepEqual(other.body.oauth_scopes, []);
  });

  it('never returns or stores client secrets, tokens or states in clear', async () => {
    await t.service.deps.jobs.drain();
    const secrets = [as.clientSecret, ...as.validAccessTokens, ...as.issuedRefreshTokens];
    assert.ok(secrets.length > 10);
    const everything = await databaseText(t.service.deps.db);
    for (const secret of secrets) {
      for (const text of responses) assert.ok(!text.includes(secret), 'a response leaked a secret');
      assert.ok(!everything.includes(secret), 'a secret is stored in clear');
    }
    // The state travels in the authorization address (that is its job) but is stored only as a hash.
    for (const state of states) assert.ok(!everything.includes(state), 'a state is stored in clear');
  });
});
