import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';

const stamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('memory stores and pinned memories', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.close());

  it('creates a store with a given id, or generates one', async () => {
    const given = await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mvisitor1', name: 'Visitor 1' });
    assert.equal(given.status, 200);
    assert.equal(given.body.memory_store_id, 'mvisitor1');
    assert.match(given.body.created_at, stamp);
    const generated = await t.api('POST', '/v2/memory-stores', {});
    assert.equal(generated.status, 200);
    assert.match(generated.body.memory_store_id, /^m[a-z0-9]+$/);
    const again = await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mvisitor1' });
    assert.equal(again.status, 409);
    assert.ok(again.body.error);
  });

  it('validates the identifier pattern and length', async () => {
    for (const bad of ['Mupper', 'x1', 'm', 'm-dash', 'm' + 'a'.repeat(64)]) {
      const r = await t.api('POST', '/v2/memory-stores', { memory_store_id: bad });
      assert.equal(r.status, 400, bad);
      assert.ok(r.body.error);
    }
    const r = await t.api('GET', '/v2/memory-stores/Not_Valid');
    assert.equal(r.status, 400);
  });

  it('creates, lists, edits and deletes pinned memories with the spec timestamps', async () => {
    await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mpins' });
    const a = await t.api('POST', '/v2/memory-stores/mpins/pinned', { memory: 'Prefers email over phone' });
    assert.equal(a.status, 200);
    assert.ok(a.body.memory_id);
    assert.match(a.body.created_at, stamp);
    assert.match(a.body.updated_at, stamp);
    await t.api('POST', '/v2/memory-stores/mpins/pinned', { memory: 'Lives in Lisbon' });
    const list = await t.api('GET', '/v2/memory-stores/mpins/pinned');
    assert.deepEqual(
      list.body.data.map((m: { memory: string }) => m.memory),
      ['Prefers email over phone', 'Lives in Lisbon'],
    );
    const edited = await t.api('PATCH', `/v2/memory-stores/mpins/pinned/${a.body.memory_id}`, { memory: 'Prefers SMS' });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.memory, 'Prefers SMS');
    const gone = await t.api('DELETE', `/v2/memory-stores/mpins/pinned/${a.body.memory_id}`);
    assert.equal(gone.status, 200);
    assert.equal((await t.api('GET', '/v2/memory-stores/mpins/pinned')).body.data.length, 1);
    assert.equal((await t.api('DELETE', `/v2/memory-stores/mpins/pinned/${a.body.memory_id}`)).status, 404);
  });

  it('rejects missing, empty and over-long memories with 400', async () => {
    await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mlimits' });
    for (const body of [{}, { memory: '' }, { memory: '   ' }, { memory: 'x'.repeat(501) }, { memory: 7 }]) {
      const r = await t.api('POST', '/v2/memory-stores/mlimits/pinned', body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 40));
      assert.ok(r.body.error);
    }
    assert.equal((await t.api('POST', '/v2/memory-stores/mlimits/pinned', { memory: 'x'.repeat(500) })).status, 200);
  });

  it('checks the length as sent and stores what was sent, spaces included', async () => {
    await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mspaces' });
    const over = await t.api('POST', '/v2/memory-stores/mspaces/pinned', { memory: 'x'.repeat(500) + ' ' });
    assert.equal(over.status, 400);
    assert.match(over.body.error, /500/);
    const padded = ' ' + 'y'.repeat(498) + ' ';
    const kept = await t.api('POST', '/v2/memory-stores/mspaces/pinned', { memory: padded });
    assert.equal(kept.status, 200);
    assert.equal(kept.body.memory, padded);
    const edited = await t.api('PATCH', `/v2/memory-stores/mspaces/pinned/${kept.body.memory_id}`, { memory: 'z'.repeat(500) + ' ' });
    assert.equal(edited.status, 400);
  });

  it('holds at most 30 pinned memories, even under concurrent creates', async () => {
    await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mfull' });
    const results = await Promise.all(
      Array.from({ length: 34 }, (_, i) => t.api('POST', '/v2/memory-stores/mfull/pinned', { memory: `fact ${i}` })),
    );
    assert.equal(results.filter((r) => r.status === 200).length, 30);
    const refused = results.filter((r) => r.status === 400);
    assert.equal(refused.length, 4);
    assert.match(refused[0]!.body.error, /30/);
    assert.equal((await t.api('GET', '/v2/memory-stores/mfull/pinned')).body.data.length, 30);
  });

  it("answers 404 for a missing store and 403 for another owner's store", async () => {
    assert.equal((await t.api('POST', '/v2/memory-stores/mmissing/pinned', { memory: 'x' })).status, 404);
    await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mmine' });
    const other = await t.api('POST', '/v2/memory-stores/mmine/pinned', { memory: 'x' }, { key: OTHER_KEY });
    assert.equal(other.status, 403);
    assert.ok(other.body.error);
    assert.equal((await t.api('GET', '/v2/memory-stores/mmine', undefined, { key: OTHER_KEY })).status, 403);
    assert.equal((await t.api('DELETE', '/v2/memory-stores/mmine', undefined, { key: OTHER_KEY })).status, 403);
    const otherList = await t.api('GET', '/v2/memory-stores', undefined, { key: OTHER_KEY });
    assert.ok(!otherList.body.data.some((s: { memory_store_id: string }) => s.memory_store_id === 'mmine'));
  });

  it('deletes a store with its pinned memories', async () => {
    await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mdel' });
    await t.api('POST', '/v2/memory-stores/mdel/pinned', { memory: 'x' });
    assert.equal((await t.api('DELETE', '/v2/memory-stores/mdel')).status, 200);
    assert.equal((await t.api('GET', '/v2/memory-stores/mdel')).status, 404);
    assert.equal((await t.api('GET', '/v2/memory-stores/mdel/pinned')).status, 404);
  });
});
