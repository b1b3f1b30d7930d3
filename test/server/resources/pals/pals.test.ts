import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { layerSecret } from '../../../../src/server/resources/pals/index.js';
import { startFileServer } from '../../../helpers/loopback.js';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';
import { mediaFixture } from '../../../helpers/media-fixtures.js';

const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('PALs and personas', () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let face: string;
  let otherFace: string;

  before(async () => {
    t = await startTestService();
    files = await startFileServer({ '/face.mp4': { body: readFileSync(mediaFixture('sample-face.mp4')), contentType: 'video/mp4' } });
    face = (await t.api('POST', '/v2/faces', { face_name: 'Mine', train_video_url: `${files.url}/face.mp4` })).body.face_id;
    otherFace = (await t.api('POST', '/v2/faces', { face_name: 'Theirs', train_video_url: `${files.url}/face.mp4` }, { key: OTHER_KEY }))
      .body.face_id;
  });
  after(async () => {
    await t.close();
    await files.close();
  });

  const minimal = () => ({ pal_name: 'Guide', system_prompt: 'You are a helpful guide.', default_face_id: face });
  const stored = async (palId: string) =>
    await t.service.deps.db.selectFrom('pals').selectAll().where('pal_id', '=', palId).executeTakeFirstOrThrow();

  it('creates a PAL with defaults filled in', async () => {
    const r = await t.api('POST', '/v2/pals', minimal());
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.pal_id, /^p[a-z0-9]+$/);
    assert.equal(r.body.pal_name, 'Guide');
    assert.equal(r.body.default_face_id, face);
    assert.equal(r.body.pipeline_mode, 'full');
    assert.equal(r.body.disclosure_type, 'auto');
    assert.deepEqual(r.body.languages, []);
    assert.deepEqual(r.body.layers, {});
    assert.equal(r.body.conferencing_email, undefined);
    assert.equal(r.body.persona_id, undefined);
    assert.match(r.body.created_at, isoMillis);
  });

  it('stores the full normalised document, with conferencing_email and canonical languages', async () => {
    const set = await t.api('POST', '/v2/guardrails', {
      name: 'house rules',
      data: [{ guardrail_name: 'polite', guardrail_prompt: 'Stay polite', modality: 'verbal' }],
    });
    const g1 = await t.api('POST', '/v2/guardrails', {
      guardrail_name: 'no prices',
      guardrail_prompt: 'Never quote prices',
      modality: 'verbal',
    });
    const g2 = await t.api('POST', '/v2/guardrails', {
      guardrail_name: 'no medical',
      guardrail_prompt: 'No medical advice',
      modality: 'verbal',
    });
    const objectives = (await t.api('POST', '/v2/objectives', { data: [{ objective_name: 'lead', output_variables: ['email'] }] })).body
      .objectives_id;
    const connector = await t.api('POST', '/v2/connectors', {
      name: 'CRM',
      server_url: 'https://mcp.example.com/mcp',
      auth_config: { type: 'bearer', token: 'tok' },
    });
    assert.equal(connector.status, 200, JSON.stringify(connector.body));
    const d1 = (await t.api('POST', '/v2/documents', { document_url: 'https://docs.example.com/a.pdf', document_name: 'A' })).body
      .document_id;
    const d2 = (await t.api('POST', '/v2/documents', { document_url: 'https://docs.example.com/b.pdf', document_name: 'B' })).body
      .document_id;
    const body = {
      ...minimal(),
      pal_name: 'Full',
      custom_greeting: 'Hello there!',
      context: 'Opening hours are 9 to 5.',
      languages: ['EN-us', 'fr', 'pt_br', 'fr'],
      document_ids: [d1, d2],
      document_tags: ['faq'],
      objectives_id: objectives,
      guardrail_ids: [g1.body.uuid, g2.body.uuid],
      guardrail_tags: ['safety'],
      guardrails_id: set.body.guardrails_id,
      disclosure_type: 'always',
      verbal_disclosure: 'I am an AI.',
      visual_disclosure: 'You are talking to an AI.',
      layers: {
        conferencing: { username: 'full.guide' },
        llm: { model: 'local' },
        tts: { voice: 'en-us' },
        mcp: { connectors: [connector.body.connector_id] },
        perception: {},
        stt: {},
        conversational_flow: { turn_taking_patience: 'high' },
      },
    };
    const r = await t.api('POST', '/v2/pals', body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.conferencing_email, 'full.guide@invite.palkit.local');
    assert.deepEqual(r.body.languages, ['en-US', 'fr', 'pt-BR']);
    assert.equal(r.body.disclosure_type, 'always');
    const row = await stored(r.body.pal_id);
    const def = row.definition as Record<string, any>;
    assert.equal(def.system_prompt, 'You are a helpful guide.');
    assert.equal(def.custom_greeting, 'Hello there!');
    assert.equal(def.verbal_disclosure, 'I am an AI.');
    assert.deepEqual(def.document_ids, [d1, d2]);
    assert.deepEqual(def.document_tags, ['faq']);
    assert.deepEqual(def.guardrail_tags, ['safety']);
    assert.equal(def.layers.conversational_flow.turn_taking_patience, 'high');
    assert.equal(row.default_face_id, face);
    assert.equal(row.created_via, 'pals');
    const again = await t.api('GET', `/v2/pals/${r.body.pal_id}`);
    assert.deepEqual(again.body, r.body);
  });

  it('shows any PAL under the persona names on /v2/personas', async () => {
    const id = (await t.api('POST', '/v2/pals', minimal())).body.pal_id;
    const r = await t.api('GET', `/v2/personas/${id}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.persona_id, id);
    assert.equal(r.body.persona_name, 'Guide');
    assert.equal(r.body.default_replica_id, face);
    assert.equal(r.body.pal_id, undefined);
  });

  it('creates personas with the legacy names, the face optional', async () => {
    const r = await t.api('POST', '/v2/personas', { persona_name: 'Old', system_prompt: 'Hi' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.persona_id, /^p/);
    assert.equal(r.body.default_replica_id, null);
    const withFace = await t.api('POST', '/v2/personas', { persona_name: 'Old2', system_prompt: 'Hi', default_replica_id: face });
    assert.equal(withFace.body.default_replica_id, face);
    assert.equal((await stored(r.body.persona_id)).created_via, 'personas');
    // The aliases work on either path.
    const mixed = await t.api('POST', '/v2/pals', { persona_name: 'Mixed', system_prompt: 'x', default_replica_id: face });
    assert.equal(mixed.status, 200);
    assert.equal(mixed.body.pal_name, 'Mixed');
    assert.equal(mixed.body.default_face_id, face);
  });

  it('requires system_prompt unless the pipeline is echo', async () => {
    const r = await t.api('POST', '/v2/pals', { pal_name: 'x', default_face_id: face });
    assert.equal(r.status, 400);
    assert.match(r.body.error, /system_prompt/);
    const blank = await t.api('POST', '/v2/pals', { pal_name: 'x', default_face_id: face, system_prompt: '   ' });
    assert.equal(blank.status, 400);
    const echo = await t.api('POST', '/v2/pals', { pal_name: 'Echo', default_face_id: face, pipeline_mode: 'echo' });
    assert.equal(echo.status, 200);
    assert.equal(echo.body.system_prompt, null);
  });

  it('refuses bad references and bad values with 400 {error}', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['/v2/pals', { pal_name: 'x', system_prompt: 'y' }, /default_face_id/],
      ['/v2/pals', { ...minimal(), default_face_id: 'rnope' }, /Unknown face 'rnope'/],
      ['/v2/pals', { ...minimal(), default_face_id: otherFace }, /Unknown face/],
      ['/v2/personas', { persona_name: 'x', system_prompt: 'y', default_replica_id: 'rnope' }, /Unknown face/],
      ['/v2/personas', { persona_name: 'x', system_prompt: 'y', layers: { conferencing: { username: 'abc' } } }, /conferencing/],
      ['/v2/pals', { ...minimal(), layers: { conferencing: { username: 'Not Valid!' } } }, /username/],
      ['/v2/pals', { ...minimal(), layers: { conferencing: {} } }, /username/],
      ['/v2/pals', { ...minimal(), languages: ['en', 'xx'] }, /'xx' is not a supported language/],
      ['/v2/pals', { ...minimal(), languages: 'en' }, /languages/],
      ['/v2/pals', { ...minimal(), guardrail_ids: Array.from({ length: 51 }, (_, i) => `g${i}`) }, /guardrail_ids/],
      ['/v2/pals', { ...minimal(), guardrail_tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, /guardrail_tags/],
      ['/v2/pals', { ...minimal(), disclosure_type: 'sometimes' }, /disclosure_type/],
      ['/v2/pals', { ...minimal(), pipeline_mode: 'fast' }, /pipeline_mode/],
      ['/v2/pals', { ...minimal(), layers: { video: {} } }, /layers/],
      ['/v2/pals', { ...minimal(), layers: { mcp: { connectors: 'c1' } } }, /connectors/],
      ['/v2/pals', { ...minimal(), layers: { mcp: { connectors: ['c1', 'c1'] } } }, /listed twice/],
      ['/v2/pals', { ...minimal(), layers: { llm: { api_key_encrypted: 'v1.x' } } }, /api_key_encrypted/],
      ['/v2/pals', { ...minimal(), colour: 'red' }, /colour|nrecognized/],
      ['/v2/pals', { ...minimal(), pal_name: 5 }, /pal_name/],
      ['/v2/pals', { ...minimal(), pal_name: undefined }, /pal_name/],
      ['/v2/pals', { ...minimal(), persona_name: 'Other' }, /disagree/],
      ['/v2/pals', { ...minimal(), document_ids: [1] }, /document_ids/],
    ];
    for (const [path, body, pattern] of cases) {
      const r = await t.api('POST', path, body);
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)} → ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.error, 'string');
      assert.match(r.body.error, pattern);
    }
    assert.equal((await t.api('POST', '/v2/pals', '{"pal_name":')).status, 400);
    assert.equal((await t.api('POST', '/v2/pals', minimal(), { key: null })).status, 401);
  });

  it('accepts exactly 50 guardrail ids and tags, and refuses unknown ids and a 51st guardrail in total', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++)
      ids.push(
        (await t.api('POST', '/v2/guardrails', { guardrail_name: `rule ${i}`, guardrail_prompt: `Rule ${i}`, modality: 'verbal' })).body
          .uuid,
      );
    const r = await t.api('POST', '/v2/pals', {
      ...minimal(),
      guardrail_ids: ids,
      guardrail_tags: Array.from({ length: 50 }, (_, i) => `t${i}`),
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.guardrail_ids.length, 50);
    const unknown = await t.api('POST', '/v2/pals', { ...minimal(), guardrail_ids: ['grnothere'] });
    assert.equal(unknown.status, 400);
    await t.api('POST', '/v2/guardrails', {
      guardrail_name: 'tagged',
      guardrail_prompt: 'Tagged rule',
      modality: 'verbal',
      tags: ['extra'],
    });
    const tooMany = await t.api('POST', '/v2/pals', { ...minimal(), guardrail_ids: ids, guardrail_tags: ['extra'] });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.error, /50/);
  });

  it('gives each conferencing username to one PAL (409)', async () => {
    const first = await t.api('POST', '/v2/pals', { ...minimal(), layers: { conferencing: { username: 'desk' } } });
    assert.equal(first.status, 200);
    const second = await t.api('POST', '/v2/pals', { ...minimal(), layers: { conferencing: { username: 'desk' } } }, { key: OTHER_KEY });
    assert.equal(second.status, 400); // the other owner's face is unknown to them: checked first
    const third = await t.api('POST', '/v2/pals', { ...minimal(), layers: { conferencing: { username: 'desk' } } });
    assert.equal(third.status, 409);
    assert.match(third.body.error, /desk/);
    // Patching the owner itself keeps its own username.
    const same = await t.api('PATCH', `/v2/pals/${first.body.pal_id}`, [{ op: 'replace', path: '/pal_name', value: 'Desk' }]);
    assert.equal(same.status, 200);
    assert.equal(same.body.conferencing_email, 'desk@invite.palkit.local');
  });

  it('keeps layer keys write-only: encrypted at rest, masked when shown, kept through patches', async () => {
    const r = await t.api('POST', '/v2/pals', {
      ...minimal(),
      layers: { llm: { model: 'gpt-x', base_url: 'https://llm.example/v1', api_key: 'sk-secret-1' } },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.layers.llm.api_key, '********');
    assert.doesNotMatch(JSON.stringify(r.body), /sk-secret/);
    const row = await stored(r.body.pal_id);
    assert.doesNotMatch(JSON.stringify(row.definition), /sk-secret/);
    assert.equal(layerSecret(t.service.deps.secrets, row.definition, 'llm'), 'sk-secret-1');
    const patched = await t.api('PATCH', `/v2/pals/${r.body.pal_id}`, [{ op: 'replace', path: '/layers/llm/model', value: 'gpt-y' }]);
    assert.equal(patched.status, 200);
    assert.equal(patched.body.layers.llm.model, 'gpt-y');
    assert.equal(layerSecret(t.service.deps.secrets, (await stored(r.body.pal_id)).definition, 'llm'), 'sk-secret-1');
    await t.api('PATCH', `/v2/pals/${r.body.pal_id}`, [{ op: 'replace', path: '/layers/llm/api_key', value: 'sk-secret-2' }]);
    assert.equal(layerSecret(t.service.deps.secrets, (await stored(r.body.pal_id)).definition, 'llm'), 'sk-secret-2');
    const maskOnly = await t.api('POST', '/v2/pals', { ...minimal(), layers: { llm: { api_key: '********' } } });
    assert.equal(maskOnly.status, 400);
  });

  it('lists PALs page by page, only the caller’s', async () => {
    const all = await t.api('GET', '/v2/pals?limit=100');
    assert.equal(all.status, 200);
    const total = all.body.total_count;
    assert.ok(total >= 8);
    assert.equal(all.body.data.length, total);
    const p1 = await t.api('GET', '/v2/pals?limit=3&page=1');
    const p2 = await t.api('GET', '/v2/pals?limit=3&page=2');
    assert.equal(p1.body.data.length, 3);
    assert.equal(p1.body.total_count, total);
    assert.ok(!p2.body.data.some((x: any) => p1.body.data.some((y: any) => y.pal_id === x.pal_id)));
    const personas = await t.api('GET', '/v2/personas?limit=1');
    assert.ok(personas.body.data[0].persona_id);
    assert.equal((await t.api('GET', '/v2/pals', undefined, { key: OTHER_KEY })).body.total_count, 0);
    for (const q of ['limit=0', 'limit=500', 'page=-1']) assert.equal((await t.api('GET', `/v2/pals?${q}`)).status, 400, q);
  });

  it('patches the document with JSON Patch and re-validates the whole result', async () => {
    const id = (await t.api('POST', '/v2/pals', { ...minimal(), languages: ['en'] })).body.pal_id;
    const ok = await t.api('PATCH', `/v2/pals/${id}`, [
      { op: 'replace', path: '/system_prompt', value: 'New prompt' },
      { op: 'add', path: '/languages/-', value: 'de' },
      { op: 'replace', path: '/custom_greeting', value: 'Welcome!' },
      { op: 'add', path: '/layers/conferencing', value: { username: 'patched' } },
    ]);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.system_prompt, 'New prompt');
    assert.deepEqual(ok.body.languages, ['en', 'de']);
    assert.equal(ok.body.conferencing_email, 'patched@invite.palkit.local');
    assert.equal((await stored(id)).definition.custom_greeting, 'Welcome!');
    assert.ok(ok.body.updated_at >= ok.body.created_at);

    const bad: Array<[unknown, RegExp]> = [
      [[{ op: 'bogus', path: '/pal_name' }], /op/],
      [{ op: 'replace' }, /invalid_request/],
      [[{ op: 'replace', path: '/nothing/here', value: 1 }], /invalid_patch/],
      [[{ op: 'replace', path: 'pal_name', value: 1 }], /invalid_patch/],
      [[{ op: 'test', path: '/pal_name', value: 'Someone else' }], /test failed/],
      [[{ op: 'remove', path: '/default_face_id' }], /default_face_id/],
      [[{ op: 'replace', path: '/default_face_id', value: otherFace }], /Unknown face/],
      [[{ op: 'replace', path: '/languages/0', value: 'xx' }], /not a supported language/],
      [[{ op: 'replace', path: '/pal_name', value: 42 }], /pal_name/],
      [[{ op: 'add', path: '/pal_id', value: 'pother' }], /pal_id|nrecognized/],
      [[{ op: 'replace', path: '/created_at', value: 'x' }], /invalid_patch/],
      [[{ op: 'remove', path: '/system_prompt' }], /system_prompt/],
    ];
    for (const [patch, pattern] of bad) {
      const r = await t.api('PATCH', `/v2/pals/${id}`, patch);
      assert.equal(r.status, 400, `${JSON.stringify(patch)} → ${r.status} ${JSON.stringify(r.body)}`);
      assert.match(r.body.error, pattern);
    }
    // Nothing of the refused patches stuck.
    assert.equal((await t.api('GET', `/v2/pals/${id}`)).body.system_prompt, 'New prompt');

    const echo = await t.api('PATCH', `/v2/pals/${id}`, [
      { op: 'replace', path: '/pipeline_mode', value: 'echo' },
      { op: 'remove', path: '/system_prompt' },
    ]);
    assert.equal(echo.status, 200); // an echo PAL needs no prompt
    assert.equal(echo.body.system_prompt, null);
    const persona = await t.api('PATCH', `/v2/personas/${id}`, [
      { op: 'replace', path: '/persona_name', value: 'Renamed' },
      { op: 'replace', path: '/default_replica_id', value: null },
      { op: 'remove', path: '/layers/conferencing' },
    ]);
    assert.equal(persona.status, 200, JSON.stringify(persona.body));
    assert.equal(persona.body.persona_name, 'Renamed');
    assert.equal(persona.body.default_replica_id, null);
    // Back on /v2/pals a face is required again.
    const viaPals = await t.api('PATCH', `/v2/pals/${id}`, [{ op: 'replace', path: '/pal_name', value: 'R2' }]);
    assert.equal(viaPals.status, 400);
    assert.match(viaPals.body.error, /default_face_id/);

    assert.equal((await t.api('PATCH', `/v2/pals/${id}`, [], { key: OTHER_KEY })).status, 404);
    assert.equal((await t.api('PATCH', '/v2/pals/pnothing', [])).status, 404);
  });

  it('hides other owners’ PALs (404) and deletes on both paths', async () => {
    const id = (await t.api('POST', '/v2/pals', minimal())).body.pal_id;
    for (const [method, path] of [
      ['GET', `/v2/pals/${id}`],
      ['GET', `/v2/personas/${id}`],
      ['DELETE', `/v2/pals/${id}`],
      ['DELETE', `/v2/personas/${id}`],
    ] as const) {
      const r = await t.api(method, path, undefined, { key: OTHER_KEY });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.error, 'PAL not found');
    }
    const del = await t.api('DELETE', `/v2/personas/${id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { deleted: true });
    assert.equal((await t.api('GET', `/v2/pals/${id}`)).status, 404);
    assert.equal((await t.api('DELETE', `/v2/pals/${id}`)).status, 404);
  });

  it('refuses to delete a PAL that powers deployments (409 naming them); deletes once they are gone', async () => {
    const id = (await t.api('POST', '/v2/pals', minimal())).body.pal_id;
    const d1 = (await t.api('POST', '/v2/deployments', { pal_id: id, channel: 'widget' })).body.deployment_id;
    const d2 = (await t.api('POST', '/v2/deployments', { pal_id: id, channel: 'embed' })).body.deployment_id;
    for (const path of [`/v2/pals/${id}`, `/v2/personas/${id}`]) {
      const refused = await t.api('DELETE', path);
      assert.equal(refused.status, 409);
      assert.match(refused.body.error, new RegExp(`${d1}.*${d2}|${d2}.*${d1}`));
    }
    assert.equal((await t.api('GET', `/v2/pals/${id}`)).status, 200);
    await t.api('DELETE', `/v2/deployments/${d1}`);
    await t.api('DELETE', `/v2/deployments/${d2}`);
    assert.equal((await t.api('DELETE', `/v2/pals/${id}`)).status, 200);
  });

  it('validates layers.mcp.connector_tools against the listed connectors and their imported tools (400 naming the field)', async () => {
    const db = t.service.deps.db;
    const connector = (connector_id: string, owner_id: number, indexed: boolean) =>
      db
        .insertInto('connectors')
        .values({
          connector_id,
          owner_id,
          team_id: null,
          name: connector_id,
          source: 'mcp',
          server_url: 'https://tools.example.com/mcp',
          auth_type: 'none',
          auth_settings: '{}',
          bearer_token_enc: null,
          client_secret_enc: null,
          access_token_enc: null,
          refresh_token_enc: null,
          access_token_expires_at: null,
          oauth_status: 'none',
          oauth_scopes: '[]',
          oauth_metadata: null,
          last_indexed_at: indexed ? new Date() : null,
          last_index_error: null,
          created_at: new Date(),
          updated_at: new Date(),
        } as never)
        .execute();
    await connector('cpaltools', 1, true);
    await connector('cpalnotyet', 1, false);
    await connector('cpalforeign', 2, true);
    await db
      .insertInto('connector_tools')
      .values([
        { connector_id: 'cpaltools', name: 'search', description: null, input_schema: '{}', position: 0 },
        { connector_id: 'cpaltools', name: 'book', description: null, input_schema: '{}', position: 1 },
      ] as never)
      .execute();
    const withMcp = (mcp: unknown) => t.api('POST', '/v2/pals', { ...minimal(), layers: { mcp } });
    const ok = await withMcp({
      connectors: ['cpaltools', 'cpalnotyet'],
      connector_tools: { cpaltools: ['search'], cpalnotyet: ['anything'] },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    for (const [mcp, pattern] of [
      [
        { connectors: ['cpaltools'], connector_tools: { cpaltools: ['delete_everything'] } },
        /layers\.mcp\.connector_tools.*delete_everything/,
      ],
      [{ connectors: ['cpaltools'], connector_tools: { cpalnotyet: ['search'] } }, /layers\.mcp\.connector_tools.*cpalnotyet.*not listed/],
      [{ connectors: ['cpaltools', 'cpalforeign'], connector_tools: { cpalforeign: ['x'] } }, /cpalforeign/],
      [{ connectors: ['cpaltools'], connector_tools: { cpaltools: ['search', 'search'] } }, /layers\.mcp\.connector_tools.*twice/],
      [{ connectors: ['cpaltools'], connector_tools: { cpaltools: 'search' } }, /connector_tools/],
      [{ connectors: ['cpaltools'], connector_tools: ['search'] }, /connector_tools/],
    ] as const) {
      const r = await withMcp(mcp);
      assert.equal(r.status, 400, JSON.stringify(mcp));
      assert.match(r.body.error, pattern);
    }
    // A patch is validated too.
    const patched = await t.api('PATCH', `/v2/pals/${ok.body.pal_id}`, [
      { op: 'replace', path: '/layers/mcp/connector_tools/cpaltools', value: ['nope'] },
    ]);
    assert.equal(patched.status, 400);
    assert.match(patched.body.error, /layers\.mcp\.connector_tools.*nope/);
  });

  it('shows guardrails_id cleaned (null) after its guardrail set is deleted', async () => {
    const set = (
      await t.api('POST', '/v2/guardrails', {
        name: 'gone soon',
        data: [{ guardrail_name: 'r', guardrail_prompt: 'Never discuss x', modality: 'verbal' }],
      })
    ).body.guardrails_id;
    const id = (await t.api('POST', '/v2/pals', { ...minimal(), guardrails_id: set })).body.pal_id;
    assert.equal((await t.api('GET', `/v2/pals/${id}`)).body.guardrails_id, set);
    assert.equal((await t.api('DELETE', `/v2/guardrails/${set}`)).status, 200);
    const read = await t.api('GET', `/v2/pals/${id}`);
    assert.ok('guardrails_id' in read.body, 'the field is shown, cleaned');
    assert.equal(read.body.guardrails_id, null);
    assert.equal((await t.api('GET', `/v2/personas/${id}`)).body.guardrails_id, null);
  });

  it('refuses to delete a face that is a PAL’s default face, naming the PAL (409)', async () => {
    const f = (await t.api('POST', '/v2/faces', { train_video_url: `${files.url}/face.mp4` })).body.face_id;
    const pal = (await t.api('POST', '/v2/pals', { ...minimal(), default_face_id: f })).body.pal_id;
    const refused = await t.api('DELETE', `/v2/replicas/${f}`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.error, new RegExp(pal));
    await t.api('DELETE', `/v2/pals/${pal}`);
    assert.equal((await t.api('DELETE', `/v2/faces/${f}`)).status, 200);
  });

  it('documents the PAL routes in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    for (const [base, one] of [
      ['/v2/pals', '/v2/pals/{pal_id}'],
      ['/v2/personas', '/v2/personas/{persona_id}'],
    ]) {
      assert.ok(doc.paths[base!].post && doc.paths[base!].get);
      assert.ok(doc.paths[one!].get && doc.paths[one!].patch && doc.paths[one!].delete);
    }
  });
});
