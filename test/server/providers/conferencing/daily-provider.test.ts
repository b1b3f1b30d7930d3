// The Daily conferencing provider against a local fake of Daily's REST API (same JSON as api.daily.co).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DAILY_KEY, startFakeDaily } from '../../../helpers/fake-daily.js';
import { createPal } from '../../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';

describe('Daily conferencing provider', () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let t: TestService;
  let palId: string;
  before(async () => {
    daily = await startFakeDaily();
    t = await startTestService({ PALKIT_DAILY_API_KEY: DAILY_KEY, PALKIT_DAILY_API_URL: daily.url, PALKIT_DAILY_RUNNER_PAGES: '0' });
    ({ palId } = await createPal(t));
  });
  after(async () => {
    await t.close();
    await daily.close();
  });
  beforeEach(() => {
    daily.calls.length = 0;
  });

  it('creates a private room that expires with the call and a non-owner token for it', async () => {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId, properties: { max_call_duration: 600 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const id = r.body.conversation_id;
    assert.equal(r.body.conversation_url, `https://palkit-test.daily.co/${id}`);
    assert.equal(daily.calls.length, 2);
    const [room, token] = daily.calls;
    assert.equal(room!.method, 'POST');
    assert.equal(room!.path, '/v1/rooms');
    assert.equal(room!.authorization, `Bearer ${DAILY_KEY}`);
    assert.equal(room!.body.name, id);
    assert.equal(room!.body.privacy, 'private');
    const created = Date.parse(r.body.created_at) / 1000;
    assert.ok(
      room!.body.properties.exp >= created + 600 && room!.body.properties.exp <= created + 600 + 600,
      'room expires after the call plus a margin',
    );
    assert.equal(room!.body.properties.eject_at_room_exp, true);
    assert.equal(room!.body.properties.enable_chat, true);
    assert.equal(token!.path, '/v1/meeting-tokens');
    assert.deepEqual(token!.body, { properties: { room_name: id, exp: room!.body.properties.exp, is_owner: false } });
    assert.ok(r.body.meeting_token.startsWith('eyJ.'));
    const stored = await t.service.deps.db
      .selectFrom('conversations')
      .select(['provider', 'provider_room', 'conversation_url'])
      .where('conversation_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(stored, { provider: 'daily', provider_room: id, conversation_url: `https://palkit-test.daily.co/${id}` });
    assert.equal((await t.api('GET', `/v2/conversations/${id}`)).body.conversation_url, `https://palkit-test.daily.co/${id}`);
  });

  it('deletes the room when the conversation ends, retrying until Daily answers', async () => {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
    const id = r.body.conversation_id;
    assert.ok(daily.rooms.has(id));
    daily.fail.deletes = 1;
    assert.equal((await t.api('POST', `/v2/conversations/${id}/end`)).status, 200);
    await waitFor(() => !daily.rooms.has(id), { timeout: 20_000, interval: 100 });
    assert.equal(daily.rooms.has(id), false, 'room deleted');
    assert.equal(daily.calls.filter((c) => c.method === 'DELETE' && c.path === `/v1/rooms/${id}`).length, 2, 'failed once, then deleted');
    await t.api('POST', `/v2/conversations/${id}/end`);
    await t.service.deps.jobs.drain();
    assert.equal(daily.calls.filter((c) => c.method === 'DELETE').length, 2, 'ending again deletes nothing more');
  });

  it('refuses enable_recording with a clear 400 rather than accepting it and recording nothing', async () => {
    const before = daily.calls.length;
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId, properties: { enable_recording: true } });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.match(r.body.error, /^invalid_request: properties\.enable_recording: Daily conversations cannot be recorded/);
    assert.equal(daily.calls.length, before, 'no room was opened');
    assert.equal((await t.api('POST', '/v2/conversations', { pal_id: palId, properties: { enable_recording: false } })).status, 200);
  });

  it('answers 502 when Daily fails, leaving no conversation and no used deployment slot', async () => {
    const before = (await t.api('GET', '/v2/conversations?limit=100')).body.total_count;
    daily.fail.rooms = 1;
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal(r.status, 502);
    assert.match(r.body.error, /^conferencing_unavailable/);
    assert.equal((await t.api('GET', '/v2/conversations?limit=100')).body.total_count, before);

    daily.fail.tokens = 1;
    const noToken = await t.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal(noToken.status, 502);
    const roomCall = daily.calls.filter((c) => c.path === '/v1/rooms').at(-1)!;
    assert.equal(daily.rooms.has(roomCall.body.name), false, 'the room made before the token failure is deleted');

    const d = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page', limits: { total_call_limit: 1 } });
    await t.api('PATCH', `/v2/deployments/${d.body.deployment_id}`, [{ op: 'replace', path: '/status', value: 'active' }]);
    daily.fail.rooms = 1;
    const failed = await t.api('POST', `/v2/deployments/${d.body.deployment_id}/start`, {}, { key: null });
    assert.equal(failed.status, 502);
    const dep = await t.api('GET', `/v2/deployments/${d.body.deployment_id}`);
    assert.equal(dep.body.usage_total, 0);
    assert.equal(dep.body.usage_today, 0);
    const ok = await t.api('POST', `/v2/deployments/${d.body.deployment_id}/start`, {}, { key: null });
    assert.equal(ok.status, 200, 'the slot was given back');
    assert.match(ok.body.conversation_url, /^https:\/\/palkit-test\.daily\.co\//);
  });
});

describe('Daily provider with a wrong key', () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let t: TestService;
  before(async () => {
    daily = await startFakeDaily();
    t = await startTestService({ PALKIT_DAILY_API_KEY: 'wrong-key', PALKIT_DAILY_API_URL: daily.url, PALKIT_DAILY_RUNNER_PAGES: '0' });
  });
  after(async () => {
    await t.close();
    await daily.close();
  });

  it('answers 502 and never leaks the key', async () => {
    const { palId } = await createPal(t);
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal(r.status, 502);
    assert.ok(!JSON.stringify(r.body).includes('wrong-key'));
  });
});
