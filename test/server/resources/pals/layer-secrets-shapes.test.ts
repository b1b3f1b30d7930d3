// Secrets in a PAL's layers by shape as well as by name (issue 34, item 12): the 33 credential-shaped
// values of the attack, one row each. None may come back from the API or be stored in clear; a value
// sent back masked keeps what was stored; settings that only look alike stay readable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../../helpers/service.js';

const M = 'S3CR3Tq7Zx9w';
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIke${M}In0.c2lnbmF0dXJl`;

/** [what the row is, the layer's fields]: the marker M must be sealed wherever it sits. */
const CASES: Array<[string, Record<string, unknown>]> = [
  ['connection_string', { connection_string: `Server=db;User Id=sa;Password=${M}` }],
  ['connectionString (camel)', { connectionString: `Server=db;Password=${M}` }],
  ['ConnectionString (pascal)', { ConnectionString: `AccountName=a;AccountKey=${M}` }],
  ['{name, value} Authorization header', { headers: [{ name: 'Authorization', value: `Bearer ${M}` }] }],
  ['{name, value} X-Api-Key header', { headers: [{ name: 'X-Api-Key', value: M }] }],
  ['{key, value} x-auth-token header', { headers: [{ key: 'x-auth-token', value: M }] }],
  ['{name, value} X-Auth header', { extra: { headers: [{ name: 'X-Auth', value: M }] } }],
  ['{header, value} Cookie', { headers: [{ header: 'Cookie', value: `sid=${M}` }] }],
  ['dsn', { dsn: `postgres://app:${M}@db:5432/app` }],
  ['sentry_dsn', { sentry_dsn: `https://${M}@o1.ingest.sentry.io/1` }],
  ['X-Auth', { 'X-Auth': M }],
  ['auth (string)', { auth: M }],
  ['auth (object)', { auth: { user: 'me', pin: M } }],
  ['bearer', { bearer: M }],
  ['jwt', { jwt: M }],
  ['sas', { sas: `sv=2022&sig=${M}` }],
  ['sasToken', { sasToken: M }],
  ['pass', { pass: M }],
  ['db_pass', { db_pass: M }],
  ['hmac', { hmac: M }],
  ['url with ?key=', { url: `https://api.example.com/v1?key=${M}` }],
  ['endpoint with &api_key=', { endpoint: `https://api.example.com/v1?region=eu&api_key=${M}` }],
  ['url with user:pass@', { base_url: `https://user:${M}@api.example.com/` }],
  ['webhook with ?token=', { webhook: `https://hooks.example.com/in?token=${M}` }],
  ['header map with a bearer value', { extra_headers: { 'X-Custom': `Bearer ${M}` } }],
  ['a JWT under a plain name', { session: JWT }],
  ['a URL in a list', { urls: ['https://a.example.com/', `https://b.example.com/?secret=${M}`] }],
  ['api_key', { api_key: M }],
  ['token', { token: M }],
  ['secret', { secret: M }],
  ['password', { password: M }],
  ['credentials (object)', { credentials: { id: 'me', value: M } }],
  ['Authorization (basic)', { Authorization: `Basic ${M}` }],
];

describe('layer secrets by shape', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t?.close());

  it('has the 33 rows of the issue', () => assert.equal(CASES.length, 33));

  for (const [what, fields] of CASES) {
    it(`seals ${what}`, async () => {
      const created = await t.api('POST', '/v2/pals', {
        pal_name: 'Shapes',
        system_prompt: 'Hi',
        default_face_id: 'rpalkitada',
        layers: { llm: { model: 'kept-model', ...fields } },
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const palId = created.body.pal_id as string;
      const shown = await t.api('GET', `/v2/pals/${palId}`);
      assert.ok(!JSON.stringify(shown.body).includes(M), `GET returned it: ${JSON.stringify(shown.body.layers)}`);
      assert.equal(shown.body.layers.llm.model, 'kept-model');
      const stored = await t.service.deps.db.selectFrom('pals').select('definition').where('pal_id', '=', palId).executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(stored.definition).includes(M), `stored in clear: ${JSON.stringify(stored.definition)}`);

      // The shown layers sent back (masks included) keep the stored secret.
      const resent = await t.api('PATCH', `/v2/pals/${palId}`, [{ op: 'replace', path: '/layers', value: shown.body.layers }]);
      assert.equal(resent.status, 200, JSON.stringify(resent.body));
      const kept = await t.service.deps.db.selectFrom('pals').select('definition').where('pal_id', '=', palId).executeTakeFirstOrThrow();
      assert.deepEqual(
        JSON.stringify(kept.definition).match(/_encrypted/g)?.length,
        JSON.stringify(stored.definition).match(/_encrypted/g)?.length,
        'the masks kept what was sealed',
      );
      assert.ok(!JSON.stringify(kept.definition).includes('********'), 'no mask stored as a value');
    });
  }

  it('leaves settings that only look alike readable', async () => {
    const llm = {
      model: 'm',
      base_url: 'https://api.example.com/v1',
      passthrough: 'yes',
      connection_timeout: 30,
      max_tokens: 200,
      style: 'basic answers, please',
      headers: [{ name: 'Accept', value: 'text/plain' }],
    };
    const created = await t.api('POST', '/v2/pals', {
      pal_name: 'Plain',
      system_prompt: 'Hi',
      default_face_id: 'rpalkitada',
      layers: { llm },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual((await t.api('GET', `/v2/pals/${created.body.pal_id}`)).body.layers.llm, llm);
  });
});

// The seven shapes a later probe still got back in clear (issue 52, N29), each in the layer it was planted in.
const LATER: Array<[string, Record<string, unknown>]> = [
  ['pin', { llm: { model: 'kept-model', pin: M } }],
  ['otp_seed', { llm: { model: 'kept-model', otp_seed: M } }],
  ['a Slack webhook URL', { conversational_flow: { notify: `https://hooks.slack.com/services/T0ABCDEF/B0GHIJKL/${M}` } }],
  ['env.SIGNING', { llm: { model: 'kept-model', env: { SIGNING: M, REGION: 'eu' } } }],
  ['a post_call_actions URL with ?token=', { post_call_actions: [{ tool_name: 'CRM', url: `https://crm.example.com/hook?token=${M}` }] }],
  ['a URL with ?access_token= in mcp', { mcp: { connectors: [], server_url: `https://mcp.example.com/sse?access_token=${M}` } }],
  ['a bearer value in mcp', { mcp: { connectors: [], extra_headers: { 'X-Custom': `Bearer ${M}` } } }],
];

describe('layer secrets by shape, the seven left', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t?.close());

  it('has the seven rows of the issue', () => assert.equal(LATER.length, 7));

  for (const [what, layers] of LATER) {
    it(`seals ${what}`, async () => {
      const created = await t.api('POST', '/v2/pals', { pal_name: 'Shapes', system_prompt: 'Hi', default_face_id: 'rpalkitada', layers });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const palId = created.body.pal_id as string;
      const shown = await t.api('GET', `/v2/pals/${palId}`);
      assert.ok(!JSON.stringify(shown.body).includes(M), `GET returned it: ${JSON.stringify(shown.body.layers)}`);
      assert.ok(JSON.stringify(shown.body.layers).includes('********'), 'shown masked');
      const stored = await t.service.deps.db.selectFrom('pals').select('definition').where('pal_id', '=', palId).executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(stored.definition).includes(M), `stored in clear: ${JSON.stringify(stored.definition)}`);
      const resent = await t.api('PATCH', `/v2/pals/${palId}`, [{ op: 'replace', path: '/layers', value: shown.body.layers }]);
      assert.equal(resent.status, 200, JSON.stringify(resent.body));
      const kept = await t.service.deps.db.selectFrom('pals').select('definition').where('pal_id', '=', palId).executeTakeFirstOrThrow();
      assert.equal(JSON.stringify(kept.definition), JSON.stringify(stored.definition), 'the masks kept what was sealed');
    });
  }

  it('leaves the MCP and conferencing settings the service reads, and look-alikes, readable', async () => {
    const layers = {
      conferencing: { username: 'ada.sales' },
      llm: { model: 'm', seed: 42, pinned_topics: ['bikes'] },
      conversational_flow: { docs: 'https://hooks.example.com/services/help' },
    };
    const created = await t.api('POST', '/v2/pals', { pal_name: 'Plain', system_prompt: 'Hi', default_face_id: 'rpalkitada', layers });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const shown = (await t.api('GET', `/v2/pals/${created.body.pal_id}`)).body.layers;
    assert.deepEqual(shown.conferencing, layers.conferencing);
    assert.deepEqual(shown.conversational_flow, layers.conversational_flow);
    assert.equal(shown.llm.seed, 42);
    assert.deepEqual(shown.llm.pinned_topics, ['bikes']);
  });
});
