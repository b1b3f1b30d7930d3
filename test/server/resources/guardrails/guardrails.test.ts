import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../../../src/server/platform/http/errors.js';
import { GuardrailCheck } from '../../../../src/server/live/agent/guardrails.js';
import type { LiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import { resolveGuardrails } from '../../../../src/server/resources/guardrails/resolve.js';
import { notifyGuardrailTriggered } from '../../../../src/server/resources/guardrails/trigger.js';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';

const item = (n: number, extra: Record<string, unknown> = {}) => ({
  guardrail_name: `rule ${n}`,
  guardrail_prompt: `Never do thing ${n}`,
  modality: 'verbal',
  ...extra,
});

describe('guardrails', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.close());

  async function createSet(n = 3, name = 'Safety') {
    const r = await t.api('POST', '/v2/guardrails', { name, data: Array.from({ length: n }, (_, i) => item(i)) });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.guardrails_id as string;
  }
  const readSet = async (id: string) =>
    (await t.api('GET', `/v2/guardrails/${id}`)).body as { uuid: string; name: string; data: Array<Record<string, any>> };

  describe('create', () => {
    it('creates an individual guardrail from a body with top-level guardrail_name', async () => {
      const r = await t.api('POST', '/v2/guardrails', {
        guardrail_name: 'no prices',
        guardrail_prompt: 'Never quote prices',
        modality: 'visual',
        callback_url: 'https://example.com/hook',
        tags: ['sales'],
      });
      assert.equal(r.status, 200);
      assert.match(r.body.uuid, /^gr[a-z0-9]+$/);
      assert.equal(r.body.guardrail_name, 'no prices');
      assert.equal(r.body.guardrail_prompt, 'Never quote prices');
      assert.equal(r.body.modality, 'visual');
      assert.equal(r.body.callback_url, 'https://example.com/hook');
      assert.deepEqual(r.body.tags, ['sales']);
      assert.equal(r.body.guardrails_id, null);
      assert.match(r.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const got = await t.api('GET', `/v2/guardrails/${r.body.uuid}`);
      assert.deepEqual(got.body, r.body);
    });

    it('defaults modality to verbal and tags to []', async () => {
      const r = await t.api('POST', '/v2/guardrails', { guardrail_name: 'x', guardrail_prompt: 'y' });
      assert.equal(r.body.modality, 'verbal');
      assert.deepEqual(r.body.tags, []);
      assert.equal('callback_url' in r.body, false, 'no callback: omitted, never null (E20)');
      const set = await t.api('POST', '/v2/guardrails', { name: 'plain', data: [{ guardrail_name: 'x', guardrail_prompt: 'y' }] });
      assert.equal('callback_url' in (await t.api('GET', `/v2/guardrails/${set.body.guardrails_id}`)).body.data[0], false);
    });

    it('creates a set: creation response, read shape, and every item individually addressable', async () => {
      const r = await t.api('POST', '/v2/guardrails', {
        name: 'Safety',
        data: [item(1), item(2, { callback_url: 'https://example.com/cb' })],
      });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['created_at', 'guardrails_id', 'guardrails_name', 'status']);
      assert.match(r.body.guardrails_id, /^gs[a-z0-9]+$/);
      assert.equal(r.body.guardrails_name, 'Safety');
      assert.equal(r.body.status, 'active');
      const set = await readSet(r.body.guardrails_id);
      assert.deepEqual(Object.keys(set).sort(), ['data', 'name', 'uuid']);
      assert.equal(set.uuid, r.body.guardrails_id);
      assert.equal(set.name, 'Safety');
      assert.deepEqual(
        set.data.map((d) => d.guardrail_name),
        ['rule 1', 'rule 2'],
      );
      assert.equal(set.data[1]!.callback_url, 'https://example.com/cb');
      for (const d of set.data) {
        assert.match(d.uuid, /^gr/);
        const one = await t.api('GET', `/v2/guardrails/${d.uuid}`);
        assert.equal(one.status, 200);
        assert.equal(one.body.guardrails_id, set.uuid);
        assert.equal(one.body.guardrail_prompt, d.guardrail_prompt);
      }
    });

    it('rejects invalid bodies with 400 naming the field of the form used', async () => {
      const missingPrompt = await t.api('POST', '/v2/guardrails', { guardrail_name: 'x' });
      assert.equal(missingPrompt.status, 400);
      assert.match(missingPrompt.body.error, /guardrail_prompt/);
      const badModality = await t.api('POST', '/v2/guardrails', { guardrail_name: 'x', guardrail_prompt: 'y', modality: 'smell' });
      assert.equal(badModality.status, 400);
      assert.match(badModality.body.error, /modality/);
      const noName = await t.api('POST', '/v2/guardrails', { data: [item(1)] });
      assert.equal(noName.status, 400);
      assert.match(noName.body.error, /name/);
      const badItem = await t.api('POST', '/v2/guardrails', { name: 's', data: [{ guardrail_name: 'x' }] });
      assert.equal(badItem.status, 400);
      assert.match(badItem.body.error, /data\.0\.guardrail_prompt/);
      const badUrl = await t.api('POST', '/v2/guardrails', { guardrail_name: 'x', guardrail_prompt: 'y', callback_url: 'ftp://x' });
      assert.equal(badUrl.status, 400);
      const tooMany = await t.api('POST', '/v2/guardrails', { name: 's', data: Array.from({ length: 51 }, (_, i) => item(i)) });
      assert.equal(tooMany.status, 400);
      const malformed = await t.api('POST', '/v2/guardrails', '{"name":');
      assert.equal(malformed.status, 400);
      const noKey = await t.api('POST', '/v2/guardrails', item(1), { key: null });
      assert.equal(noKey.status, 401);
      assert.equal(typeof noKey.body.message, 'string');
    });
  });

  describe('read and list', () => {
    it('lists sets by default and individual guardrails with legacy=false, paged', async () => {
      const u = await startTestService();
      try {
        for (let i = 0; i < 3; i++) await u.api('POST', '/v2/guardrails', { name: `set ${i}`, data: [item(i), item(i + 10)] });
        await u.api('POST', '/v2/guardrails', { ...item(99), tags: ['a'] });
        const sets = await u.api('GET', '/v2/guardrails');
        assert.equal(sets.status, 200);
        assert.equal(sets.body.total_count, 3);
        assert.equal(sets.body.data.length, 3);
        assert.deepEqual(
          sets.body.data.map((s: any) => s.name),
          ['set 2', 'set 1', 'set 0'],
        );
        assert.equal(sets.body.data[0].data.length, 2);
        assert.equal((await u.api('GET', '/v2/guardrails?legacy=true')).body.total_count, 3);
        const flat = await u.api('GET', '/v2/guardrails?legacy=false&limit=4&page=1');
        assert.equal(flat.body.total_count, 7);
        assert.equal(flat.body.data.length, 4);
        assert.ok(flat.body.data.every((g: any) => g.uuid.startsWith('gr') && 'guardrail_prompt' in g));
        const page2 = await u.api('GET', '/v2/guardrails?legacy=false&limit=4&page=2');
        assert.equal(page2.body.data.length, 3);
        const all = new Set([...flat.body.data, ...page2.body.data].map((g: any) => g.uuid));
        assert.equal(all.size, 7);
        const tagged = await u.api('GET', '/v2/guardrails?legacy=false&tag=a');
        assert.equal(tagged.body.total_count, 1);
        assert.equal(tagged.body.data[0].guardrail_name, 'rule 99');
        const tags = await u.api('GET', '/v2/guardrails/tags');
        assert.deepEqual(tags.body.data, [{ tag: 'a', count: 1 }]);
        assert.equal((await u.api('GET', '/v2/guardrails?legacy=maybe')).status, 400);
        assert.equal((await u.api('GET', '/v2/guardrails?limit=0')).status, 400);
        assert.equal((await u.api('GET', '/v2/guardrails', undefined, { key: OTHER_KEY })).body.total_count, 0);
      } finally {
        await u.close();
      }
    });

    it('answers 404 for unknown ids, 403 for another owner, 400 for an id of neither form', async () => {
      const set = await createSet(1);
      const { data } = await readSet(set);
      assert.equal((await t.api('GET', '/v2/guardrails/gsnothing00')).status, 404);
      assert.equal((await t.api('GET', '/v2/guardrails/grnothing00')).status, 404);
      assert.equal((await t.api('GET', `/v2/guardrails/${set}`, undefined, { key: OTHER_KEY })).status, 403);
      assert.equal((await t.api('GET', `/v2/guardrails/${data[0]!.uuid}`, undefined, { key: OTHER_KEY })).status, 403);
      assert.equal((await t.api('PATCH', `/v2/guardrails/${set}`, [], { key: OTHER_KEY })).status, 403);
      assert.equal((await t.api('DELETE', `/v2/guardrails/${data[0]!.uuid}`, undefined, { key: OTHER_KEY })).status, 403);
      const neither = await t.api('GET', '/v2/guardrails/gxyz123');
      assert.equal(neither.status, 400);
      assert.match(neither.body.error, /neither/);
      assert.equal((await t.api('GET', '/v2/guardrails/BAD!')).status, 400);
    });
  });

  describe('PATCH of a set (JSON Patch, identity rules)', () => {
    it('keeps the uuid across a field edit and mirrors it to the individual guardrail', async () => {
      const id = await createSet(2);
      const before = await readSet(id);
      const r = await t.api('PATCH', `/v2/guardrails/${id}`, [
        { op: 'replace', path: '/data/0/guardrail_prompt', value: 'Be kind' },
        { op: 'replace', path: '/name', value: 'Renamed' },
      ]);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.name, 'Renamed');
      assert.equal(r.body.data[0].uuid, before.data[0]!.uuid);
      assert.equal(r.body.data[0].guardrail_prompt, 'Be kind');
      assert.equal(r.body.data[1].uuid, before.data[1]!.uuid);
      assert.equal((await t.api('GET', `/v2/guardrails/${before.data[0]!.uuid}`)).body.guardrail_prompt, 'Be kind');
      assert.deepEqual(await readSet(id), r.body);
    });

    it('keeps uuids across moves', async () => {
      const id = await createSet(3);
      const before = await readSet(id);
      const r = await t.api('PATCH', `/v2/guardrails/${id}`, [{ op: 'move', from: '/data/0', path: '/data/2' }]);
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.data.map((d: any) => d.uuid),
        [before.data[1]!.uuid, before.data[2]!.uuid, before.data[0]!.uuid],
      );
      assert.deepEqual(
        (await readSet(id)).data.map((d) => d.uuid),
        r.body.data.map((d: any) => d.uuid),
      );
    });

    it('remove deletes the item and its individual form; the others keep their uuids', async () => {
      const id = await createSet(3);
      const before = await readSet(id);
      const r = await t.api('PATCH', `/v2/guardrails/${id}`, [{ op: 'remove', path: '/data/1' }]);
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.data.map((d: any) => d.uuid),
        [before.data[0]!.uuid, before.data[2]!.uuid],
      );
      assert.equal((await t.api('GET', `/v2/guardrails/${before.data[1]!.uuid}`)).status, 404);
    });

    it('a whole-item replace gives a new uuid (even if the value carries the old one); add appends a new item', async () => {
      const id = await createSet(2);
      const before = await readSet(id);
      const r = await t.api('PATCH', `/v2/guardrails/${id}`, [
        { op: 'replace', path: '/data/0', value: { ...item(7), uuid: before.data[0]!.uuid } },
        { op: 'add', path: '/data/-', value: item(8) },
        { op: 'copy', from: '/data/1', path: '/data/1' },
      ]);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const uuids = r.body.data.map((d: any) => d.uuid);
      assert.equal(uuids.length, 4);
      assert.notEqual(uuids[0], before.data[0]!.uuid);
      assert.match(uuids[0], /^gr/);
      assert.equal(uuids[2], before.data[1]!.uuid, 'the original item 1 moved to index 2 by the copy');
      assert.notEqual(uuids[1], before.data[1]!.uuid, 'a copy is a new item');
      assert.equal(new Set(uuids).size, 4);
      assert.equal(r.body.data[0].guardrail_name, 'rule 7');
      assert.equal(r.body.data[3].guardrail_name, 'rule 8');
      assert.equal((await t.api('GET', `/v2/guardrails/${before.data[0]!.uuid}`)).status, 404);
      assert.equal((await t.api('GET', `/v2/guardrails/${uuids[3]}`)).body.guardrails_id, id);
    });

    it('rejects patches that touch uuid, fail, or leave an invalid set, changing nothing', async () => {
      const id = await createSet(2);
      const before = await readSet(id);
      const cases: unknown[] = [
        [{ op: 'replace', path: '/data/0/uuid', value: 'grhacked' }],
        [{ op: 'remove', path: '/data/0/guardrail_prompt' }],
        [{ op: 'replace', path: '/data/0/modality', value: 'smell' }],
        [
          { op: 'remove', path: '/data/0' },
          { op: 'test', path: '/name', value: 'not the name' },
        ],
        [{ op: 'replace', path: '/data/9/guardrail_name', value: 'x' }],
        [{ op: 'add', path: '/extra', value: 1 }],
        [{ op: 'jump', path: '/name' }],
        { guardrail_name: 'object bodies are for individual guardrails' },
      ];
      for (const body of cases) {
        const r = await t.api('PATCH', `/v2/guardrails/${id}`, body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(typeof r.body.error, 'string');
      }
      assert.deepEqual(await readSet(id), before);
      assert.equal((await t.api('PATCH', '/v2/guardrails/gsmissing000', [])).status, 404);
    });
  });

  describe('individual guardrails', () => {
    it('PATCH with a partial object changes only sent fields; null clears callback_url; the set sees it', async () => {
      const id = await createSet(2);
      const { data } = await readSet(id);
      const uuid = data[1]!.uuid as string;
      await t.api('PATCH', `/v2/guardrails/${uuid}`, { callback_url: 'https://example.com/x' });
      const r = await t.api('PATCH', `/v2/guardrails/${uuid}`, { guardrail_prompt: 'Changed', tags: ['t1'] });
      assert.equal(r.status, 200);
      assert.equal(r.body.guardrail_prompt, 'Changed');
      assert.equal(r.body.guardrail_name, 'rule 1');
      assert.equal(r.body.callback_url, 'https://example.com/x');
      assert.deepEqual(r.body.tags, ['t1']);
      const cleared = await t.api('PATCH', `/v2/guardrails/${uuid}`, { callback_url: null });
      assert.equal('callback_url' in cleared.body, false);
      const set = await readSet(id);
      assert.equal(set.data[1]!.uuid, uuid);
      assert.equal(set.data[1]!.guardrail_prompt, 'Changed');
      assert.equal((await t.api('PATCH', `/v2/guardrails/${uuid}`, { uuid: 'grx' })).status, 400);
      assert.equal((await t.api('PATCH', `/v2/guardrails/${uuid}`, { modality: 'taste' })).status, 400);
      assert.equal((await t.api('PATCH', '/v2/guardrails/grmissing000', { guardrail_prompt: 'x' })).status, 404);
    });

    it('PATCH also accepts a JSON Patch over the item document', async () => {
      const g = (await t.api('POST', '/v2/guardrails', item(1))).body;
      const r = await t.api('PATCH', `/v2/guardrails/${g.uuid}`, [
        { op: 'add', path: '/tags/-', value: 'x' },
        { op: 'replace', path: '/modality', value: 'visual' },
      ]);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.tags, ['x']);
      assert.equal(r.body.modality, 'visual');
      assert.equal((await t.api('PATCH', `/v2/guardrails/${g.uuid}`, [{ op: 'remove', path: '/guardrail_name' }])).status, 400);
    });

    it('DELETE of an item removes it from its set', async () => {
      const id = await createSet(3);
      const { data } = await readSet(id);
      const r = await t.api('DELETE', `/v2/guardrails/${data[0]!.uuid}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { deleted: true });
      assert.deepEqual(
        (await readSet(id)).data.map((d) => d.uuid),
        [data[1]!.uuid, data[2]!.uuid],
      );
      assert.equal((await t.api('DELETE', `/v2/guardrails/${data[0]!.uuid}`)).status, 404);
    });
  });

  describe('DELETE of a set', () => {
    it('deletes the set and its items and cleans PALs that reference them', async () => {
      const id = await createSet(2);
      const { data } = await readSet(id);
      const standalone = (await t.api('POST', '/v2/guardrails', item(50))).body.uuid as string;
      const db = t.service.deps.db;
      const pal = (pal_id: string, owner_id: number, definition: Record<string, unknown>) =>
        db
          .insertInto('pals')
          .values({ pal_id, owner_id, pal_name: pal_id, definition: JSON.stringify(definition) })
          .execute();
      await pal('pcleanme', 1, {
        system_prompt: 'hi',
        guardrails_id: id,
        guardrail_ids: [data[0]!.uuid, standalone],
        guardrail_tags: ['x'],
      });
      await pal('ponlyitem', 1, { system_prompt: 'hi', guardrail_ids: [data[1]!.uuid] });
      await pal('puntouched', 1, { system_prompt: 'hi', guardrail_ids: [standalone] });
      await pal('pforeign', 2, { system_prompt: 'hi', guardrails_id: id });

      const r = await t.api('DELETE', `/v2/guardrails/${id}`);
      assert.equal(r.status, 200);
      assert.equal((await t.api('GET', `/v2/guardrails/${id}`)).status, 404);
      for (const d of data) assert.equal((await t.api('GET', `/v2/guardrails/${d.uuid}`)).status, 404);
      assert.equal((await t.api('GET', `/v2/guardrails/${standalone}`)).status, 200);

      const defs = Object.fromEntries(
        (await db.selectFrom('pals').select(['pal_id', 'definition']).execute()).map((p) => [p.pal_id, p.definition]),
      );
      assert.deepEqual(defs.pcleanme, { system_prompt: 'hi', guardrails_id: null, guardrail_ids: [standalone], guardrail_tags: ['x'] });
      assert.deepEqual(defs.ponlyitem, { system_prompt: 'hi', guardrail_ids: [] });
      assert.deepEqual(defs.puntouched, { system_prompt: 'hi', guardrail_ids: [standalone] });
      assert.deepEqual(defs.pforeign, { system_prompt: 'hi', guardrails_id: id }, 'another account is never touched');
      assert.equal((await t.api('DELETE', `/v2/guardrails/${id}`)).status, 404);
    });

    it('deleting an individual guardrail removes it from PAL guardrail_ids', async () => {
      const g = (await t.api('POST', '/v2/guardrails', item(60))).body.uuid as string;
      const db = t.service.deps.db;
      await db
        .insertInto('pals')
        .values({ pal_id: 'pindividual', owner_id: 1, pal_name: 'p', definition: JSON.stringify({ guardrail_ids: [g, 'grother'] }) })
        .execute();
      await t.api('DELETE', `/v2/guardrails/${g}`);
      const row = await db.selectFrom('pals').select('definition').where('pal_id', '=', 'pindividual').executeTakeFirstOrThrow();
      assert.deepEqual(row.definition, { guardrail_ids: ['grother'] });
    });
  });

  describe('guardrails a conversation runs with', () => {
    it('keeps 50 (the listed ones, then the newest tag matches) when tags match more than 50, and skips deleted references', async () => {
      const db = t.service.deps.db;
      const make = async (prompt: string) =>
        (await t.api('POST', '/v2/guardrails', { guardrail_name: prompt, guardrail_prompt: prompt, modality: 'verbal', tags: ['crowd'] }))
          .body.uuid as string;
      const oldest = await make('Never discuss aardvarks');
      const listed = (
        await t.api('POST', '/v2/guardrails', { guardrail_name: 'listed', guardrail_prompt: 'Never discuss lemurs', modality: 'verbal' })
      ).body.uuid as string;
      const gone = (
        await t.api('POST', '/v2/guardrails', { guardrail_name: 'gone', guardrail_prompt: 'Never discuss ferrets', modality: 'verbal' })
      ).body.uuid as string;
      await db
        .updateTable('guardrails')
        .set({ created_at: new Date(Date.now() - 86_400_000) })
        .where('uuid', '=', oldest)
        .execute();
      for (let i = 0; i < 48; i++) await make(`Never discuss filler${i}`);
      const newest = await make('Never discuss zebras');
      await db
        .updateTable('guardrails')
        .set({ created_at: new Date(Date.now() + 60_000) })
        .where('uuid', '=', newest)
        .execute();
      await t.api('DELETE', `/v2/guardrails/${gone}`);
      // 50 tag matches plus one listed id: 51, one over the limit (creation would refuse it).
      const conv = {
        ownerId: 1,
        conversationId: 'cguardrailcap',
        pal: { definition: { guardrail_ids: [listed, gone], guardrail_tags: ['crowd'] } },
      } as unknown as LiveConversation;
      const check = await GuardrailCheck.load(t.service.deps, conv);
      assert.equal((await check.check('what about zebras?'))?.uuid, newest, 'the newest tag match is kept');
      assert.equal((await check.check('and lemurs?'))?.uuid, listed, 'a listed guardrail always is');
      assert.equal(await check.check('and aardvarks?'), null, 'the oldest tag match is the one left out');
      assert.equal(await check.check('ferrets?'), null);
    });
  });

  describe('resolveGuardrails', () => {
    it('resolves a set, ids and tags without duplicates, in order', async () => {
      const db = t.service.deps.db;
      const set = await createSet(2, 'resolve');
      const { data } = await readSet(set);
      const a = (await t.api('POST', '/v2/guardrails', { ...item(70), tags: ['resolve-tag'] })).body;
      const b = (await t.api('POST', '/v2/guardrails', { ...item(71), tags: ['resolve-tag', 'other'] })).body;
      const resolved = await resolveGuardrails(db, 1, {
        guardrails_id: set,
        guardrail_ids: [b.uuid, data[0]!.uuid],
        guardrail_tags: ['resolve-tag'],
      });
      assert.deepEqual(
        resolved.map((g) => g.uuid),
        [data[0]!.uuid, data[1]!.uuid, b.uuid, a.uuid],
      );
      assert.deepEqual(Object.keys(resolved[0]!).sort(), ['callback_url', 'guardrail_name', 'guardrail_prompt', 'modality', 'uuid']);
      assert.deepEqual(await resolveGuardrails(db, 1, {}), []);
      assert.deepEqual(await resolveGuardrails(db, 1, { guardrail_tags: ['no-such-tag'] }), []);
    });

    it('throws 400 for unknown or foreign ids and sets, and past 50 guardrails', async () => {
      const db = t.service.deps.db;
      const expect400 = async (p: Promise<unknown>, re: RegExp) =>
        assert.rejects(p, (e: unknown) => e instanceof ApiError && e.status === 400 && re.test(e.message));
      const mine = (await t.api('POST', '/v2/guardrails', item(80))).body.uuid;
      const set = await createSet(1);
      await expect400(resolveGuardrails(db, 1, { guardrail_ids: ['grnope'] }), /grnope/);
      await expect400(resolveGuardrails(db, 2, { guardrail_ids: [mine] }), /not found/);
      await expect400(resolveGuardrails(db, 1, { guardrails_id: 'gsnope' }), /gsnope/);
      await expect400(resolveGuardrails(db, 2, { guardrails_id: set }), /not found/);
      await expect400(resolveGuardrails(db, 1, { guardrail_tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), /at most 50/);
      await t.api('POST', '/v2/guardrails', { name: 'big', data: Array.from({ length: 50 }, (_, i) => ({ ...item(i), tags: ['bulk'] })) });
      const fifty = await resolveGuardrails(db, 1, { guardrail_tags: ['bulk'] });
      assert.equal(fifty.length, 50);
      await expect400(resolveGuardrails(db, 1, { guardrail_tags: ['bulk'], guardrail_ids: [mine] }), /51 guardrails/);
    });
  });

  describe('guardrail callback', () => {
    let receiver: Server;
    let receiverUrl: string;
    const received: Array<{ headers: IncomingHttpHeaders; body: any }> = [];
    before(async () => {
      receiver = createServer((req, res) => {
        let text = '';
        req.on('data', (c) => (text += c));
        req.on('end', () => {
          received.push({ headers: req.headers, body: JSON.parse(text) });
          res.end('ok');
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/guardrail`;
    });
    after(() => new Promise<void>((r) => receiver.close(() => r())));

    it('POSTs {conversation_id, properties: {guardrail, guardrail_uuid}} signed to the callback_url', async () => {
      const g = (await t.api('POST', '/v2/guardrails', { ...item(90), callback_url: receiverUrl })).body;
      const group = await notifyGuardrailTriggered(t.service.deps, 1, 'cconv123', g);
      assert.ok(group);
      await waitFor(() => received.length > 0, { timeout: 30_000, interval: 50 });
      assert.equal(received.length, 1);
      assert.deepEqual(received[0]!.body, { conversation_id: 'cconv123', properties: { guardrail: 'rule 90', guardrail_uuid: g.uuid } });
      assert.match(String(received[0]!.headers['webhook-signature']), /^v1,/);
      assert.equal(await notifyGuardrailTriggered(t.service.deps, 1, 'cconv123', { ...g, callback_url: null }), null);
    });
  });

  it('documents every guardrail route in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    for (const m of ['get', 'post']) assert.ok(doc.paths['/v2/guardrails'][m], m);
    for (const m of ['get', 'patch', 'delete']) assert.ok(doc.paths['/v2/guardrails/{guardrails_id}'][m], m);
    assert.ok(doc.paths['/v2/guardrails/tags'].get);
  });
});
