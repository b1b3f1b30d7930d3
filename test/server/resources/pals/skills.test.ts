import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../../helpers/wait-for.js';
import { palSkills } from '../../../../src/server/resources/pals/index.js';
import { enabledCanvasComponents } from '../../../../src/server/resources/pals/skills/registry.js';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';

const isoMicros = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

describe('PAL skills', () => {
  let t: TestService;
  let pal: string;
  let doc: string;

  async function newPal(key?: string) {
    const db = t.service.deps.db;
    // A face row is enough for a PAL to reference (training is covered by faces.test.ts).
    const faceId = `rskill${Math.random().toString(36).slice(2, 10)}`;
    await db
      .insertInto('faces')
      .values({ face_id: faceId, owner_id: key === OTHER_KEY ? 2 : 1, face_name: 'F', status: 'completed', training_progress: '4/4' })
      .execute();
    const r = await t.api(
      'POST',
      '/v2/pals',
      { pal_name: 'Skilled', system_prompt: 'Be helpful', default_face_id: faceId },
      key ? { key } : {},
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.pal_id as string;
  }

  before(async () => {
    t = await startTestService();
    pal = await newPal();
    doc = (await t.api('POST', '/v2/documents', { document_url: 'https://docs.example.com/deck.pdf', document_name: 'Deck' })).body
      .document_id;
  });
  after(() => t.close());

  it('lists the registry with a config schema per skill', async () => {
    const r = await t.api('GET', '/v2/skills');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.map((s: any) => s.skill_id).sort(), ['internet_search', 'magic_canvas', 'presentation']);
    const canvas = r.body.data.find((s: any) => s.skill_id === 'magic_canvas');
    assert.ok(canvas.config_schema.properties.components);
    const presentation = r.body.data.find((s: any) => s.skill_id === 'presentation');
    assert.deepEqual(presentation.config_schema.required, ['document_ids']);
    assert.equal((await t.api('GET', '/v2/skills', undefined, { key: null })).status, 401);
  });

  it('attaches magic_canvas with an empty config; timestamps carry microseconds and an offset', async () => {
    const r = await t.api('PUT', `/v2/pals/${pal}/skills/magic_canvas`, { config: {} });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), ['attached_at', 'config', 'skill_id', 'updated_at']);
    assert.equal(r.body.skill_id, 'magic_canvas');
    assert.deepEqual(r.body.config, {});
    assert.match(r.body.attached_at, isoMicros);
    assert.match(r.body.updated_at, isoMicros);
  });

  it('attaches a skill without configuration with no body at all', async () => {
    const r = await t.api('PUT', `/v2/pals/${pal}/skills/internet_search`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.config, {});
    const withConfig = await t.api('PUT', `/v2/pals/${pal}/skills/internet_search`, { config: { depth: 3 } });
    assert.equal(withConfig.status, 400);
  });

  it('validates magic_canvas configs', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ components: { banner: {} } }, /components/],
      [{ components: { question: { enabled: 'yes' } } }, /question\.enabled/],
      [{ components: { question: { colour: 'red' } } }, /question/],
      [{ components: { scheduling_embed: { provider: 'cal.com', scheduling_url: 'https://cal.com/x' } } }, /provider/],
      [{ components: { scheduling_embed: { scheduling_url: 'http://calendly.com/acme' } } }, /https/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://localhost/x' } } }, /localhost/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://app.localhost/x' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://10.1.2.3/x' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://127.0.0.1:8443/x' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://2130706433/x' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://169.254.169.254/latest' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://[::1]/x' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://[fe80::1]/x' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://metadata.google.internal/x' } } }, /not allowed/],
      [{ components: { scheduling_embed: { scheduling_url: 'https://calendly.com/' + 'a'.repeat(2040) } } }, /2048/],
      [{ usage_guidance: 'x'.repeat(2049) }, /usage_guidance/],
      [{ usage_guidance: 7 }, /usage_guidance/],
      [{ surprise: true }, /surprise|nrecognized/],
      ['not an object', /config/],
    ];
    for (const [config, pattern] of bad) {
      const r = await t.api('PUT', `/v2/pals/${pal}/skills/magic_canvas`, { config });
      assert.equal(r.status, 400, `${JSON.stringify(config).slice(0, 120)} → ${r.status} ${JSON.stringify(r.body)}`);
      assert.match(r.body.error, pattern);
    }
    const good = {
      components: {
        chart: { enabled: false },
        scheduling_embed: { provider: 'calendly', scheduling_url: 'https://calendly.com/acme/30min' },
      },
      usage_guidance: 'g'.repeat(2048),
    };
    const r = await t.api('PUT', `/v2/pals/${pal}/skills/magic_canvas`, { config: good });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.config, good);
    assert.deepEqual(enabledCanvasComponents(r.body.config), ['question', 'input', 'calendar', 'scheduling_embed', 'text', 'alert']);
    assert.deepEqual(enabledCanvasComponents({}), ['question', 'input', 'calendar', 'text', 'chart', 'alert']);
  });

  it('validates presentation configs', async () => {
    for (const [config, pattern] of [
      [{}, /config\.document_ids/],
      [{ document_ids: [] }, /document_ids/],
      [{ document_ids: ['d1'], slides_trigger: 'sometimes' }, /slides_trigger/],
      [{ document_ids: ['d1'], prompt: 5 }, /prompt/],
    ] as const) {
      const r = await t.api('PUT', `/v2/pals/${pal}/skills/presentation`, { config });
      assert.equal(r.status, 400, JSON.stringify(config));
      assert.match(r.body.error, pattern);
    }
    const unknown = await t.api('PUT', `/v2/pals/${pal}/skills/presentation`, { config: { document_ids: ['dnothere'] } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /dnothere/);
    const r = await t.api('PUT', `/v2/pals/${pal}/skills/presentation`, {
      config: { document_ids: [doc], slides_trigger: 'walk_the_deck', prompt: 'Walk through the deck.' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.config.slides_trigger, 'walk_the_deck');
  });

  it('refuses unknown skills and bad bodies with 400', async () => {
    const r = await t.api('PUT', `/v2/pals/${pal}/skills/my_skill`, { config: {} });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { error: "Unknown skill 'my_skill'" });
    assert.equal((await t.api('PUT', `/v2/pals/${pal}/skills/magic_canvas`, { config: {}, extra: 1 })).status, 400);
    assert.equal((await t.api('PUT', `/v2/pals/${pal}/skills/magic_canvas`, '{"config":')).status, 400);
    assert.equal((await t.api('PUT', `/v2/pals/${pal}/skills/magic_canvas`, { config: {} }, { key: null })).status, 401);
  });

  it('reads one attachment and the whole set; 404 for a missing PAL or an unattached skill', async () => {
    const one = await t.api('GET', `/v2/pals/${pal}/skills/magic_canvas`);
    assert.equal(one.status, 200);
    assert.equal(one.body.skill_id, 'magic_canvas');
    const all = await t.api('GET', `/v2/pals/${pal}/skills`);
    assert.deepEqual(Object.keys(all.body.data).sort(), ['internet_search', 'magic_canvas', 'presentation']);
    assert.equal(all.body.data.presentation.skill_id, 'presentation');
    const fresh = await newPal();
    const missing = await t.api('GET', `/v2/pals/${fresh}/skills/magic_canvas`);
    assert.equal(missing.status, 404);
    assert.match(missing.body.error, /not attached/);
    assert.deepEqual((await t.api('GET', `/v2/pals/${fresh}/skills`)).body, { data: {} });
    for (const path of [`/v2/pals/pnothing/skills/magic_canvas`, `/v2/pals/pnothing/skills`]) {
      const r = await t.api('GET', path);
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, { error: 'PAL not found' });
    }
    for (const [method, path, body] of [
      ['GET', `/v2/pals/${pal}/skills/magic_canvas`, undefined],
      ['GET', `/v2/pals/${pal}/skills`, undefined],
      ['PUT', `/v2/pals/${pal}/skills/internet_search`, { config: {} }],
      ['PATCH', `/v2/pals/${pal}/skills/magic_canvas`, { config: {} }],
      ['DELETE', `/v2/pals/${pal}/skills/magic_canvas`, undefined],
      ['PUT', `/v2/pals/${pal}/skills`, { skills: {} }],
    ] as const) {
      const r = await t.api(method, path, body, { key: OTHER_KEY });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.deepEqual(r.body, { error: 'PAL not found' });
    }
  });

  it('merges partial configs (null removes a key) and re-validates the result', async () => {
    const p = await newPal();
    const first = await t.api('PUT', `/v2/pals/${p}/skills/magic_canvas`, { config: { components: { question: { enabled: false } } } });
    // The next write must land at a later millisecond than the first: wait for the clock to pass it.
    await waitFor(() => Date.now() > Date.parse(first.body.updated_at), { interval: 1, what: 'the clock to pass the first write' });
    const merged = await t.api('PATCH', `/v2/pals/${p}/skills/magic_canvas`, {
      config: { components: { chart: { enabled: false } }, usage_guidance: 'Use charts sparingly' },
    });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.deepEqual(merged.body.config, {
      components: { question: { enabled: false }, chart: { enabled: false } },
      usage_guidance: 'Use charts sparingly',
    });
    assert.equal(merged.body.attached_at, first.body.attached_at);
    assert.notEqual(merged.body.updated_at, first.body.updated_at);
    const removed = await t.api('PATCH', `/v2/pals/${p}/skills/magic_canvas`, {
      config: { components: { question: null }, usage_guidance: null },
    });
    assert.deepEqual(removed.body.config, { components: { chart: { enabled: false } } });
    const invalid = await t.api('PATCH', `/v2/pals/${p}/skills/magic_canvas`, { config: { components: { banner: {} } } });
    assert.equal(invalid.status, 400);
    assert.deepEqual((await t.api('GET', `/v2/pals/${p}/skills/magic_canvas`)).body.config, { components: { chart: { enabled: false } } });
    assert.equal((await t.api('PATCH', `/v2/pals/${p}/skills/presentation`, { config: {} })).status, 404);
    assert.equal((await t.api('PATCH', `/v2/pals/${p}/skills/magic_canvas`, {})).status, 400);
    assert.equal((await t.api('PATCH', `/v2/pals/${p}/skills/magic_canvas`, { config: 3 })).status, 400);
    // Re-attaching replaces the config but keeps attached_at.
    const replaced = await t.api('PUT', `/v2/pals/${p}/skills/magic_canvas`, { config: {} });
    assert.deepEqual(replaced.body.config, {});
    assert.equal(replaced.body.attached_at, first.body.attached_at);
  });

  it('detaches a skill; the registry keeps it', async () => {
    const p = await newPal();
    await t.api('PUT', `/v2/pals/${p}/skills/magic_canvas`, { config: {} });
    const del = await t.api('DELETE', `/v2/pals/${p}/skills/magic_canvas`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { skill_id: 'magic_canvas', deleted: true });
    assert.equal((await t.api('GET', `/v2/pals/${p}/skills/magic_canvas`)).status, 404);
    const again = await t.api('DELETE', `/v2/pals/${p}/skills/magic_canvas`);
    assert.equal(again.status, 404);
    assert.match(again.body.error, /not attached/);
    assert.equal((await t.api('DELETE', `/v2/pals/pnothing/skills/magic_canvas`)).body.error, 'PAL not found');
    assert.ok((await t.api('GET', '/v2/skills')).body.data.some((s: any) => s.skill_id === 'magic_canvas'));
    assert.equal((await t.api('PUT', `/v2/pals/${p}/skills/magic_canvas`, { config: {} })).status, 200);
  });

  it('replaces the whole set atomically', async () => {
    const p = await newPal();
    await t.api('PUT', `/v2/pals/${p}/skills/magic_canvas`, { config: {} });
    const set = await t.api('PUT', `/v2/pals/${p}/skills`, {
      skills: { internet_search: {}, presentation: { config: { document_ids: [doc] } } },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(Object.keys(set.body.data).sort(), ['internet_search', 'presentation']);
    assert.match(set.body.data.presentation.attached_at, isoMicros);
    const refused = await t.api('PUT', `/v2/pals/${p}/skills`, { skills: { magic_canvas: {}, presentation: { config: {} } } });
    assert.equal(refused.status, 400);
    const unknown = await t.api('PUT', `/v2/pals/${p}/skills`, { skills: { teleport: {} } });
    assert.deepEqual(unknown.body, { error: "Unknown skill 'teleport'" });
    assert.deepEqual(Object.keys((await t.api('GET', `/v2/pals/${p}/skills`)).body.data).sort(), ['internet_search', 'presentation']);
    assert.deepEqual(await palSkills(t.service.deps.db, p), { internet_search: {}, presentation: { document_ids: [doc] } });
    assert.equal((await t.api('PUT', `/v2/pals/${p}/skills`, { nope: {} })).status, 400);
    const none = await t.api('PUT', `/v2/pals/${p}/skills`, { skills: {} });
    assert.deepEqual(none.body, { data: {} });
  });

  it('drops the attachments with the PAL', async () => {
    const p = await newPal();
    await t.api('PUT', `/v2/pals/${p}/skills/internet_search`);
    await t.api('DELETE', `/v2/pals/${p}`);
    assert.deepEqual(await palSkills(t.service.deps.db, p), {});
    assert.equal((await t.api('GET', `/v2/pals/${p}/skills`)).status, 404);
  });

  it('documents the skill routes in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    const one = doc.paths['/v2/pals/{pal_id}/skills/{skill_id}'];
    assert.ok(one.put && one.get && one.patch && one.delete);
    assert.ok(doc.paths['/v2/pals/{pal_id}/skills'].put && doc.paths['/v2/pals/{pal_id}/skills'].get);
    assert.ok(doc.paths['/v2/skills'].get);
  });
});
