// Keyed conversations: create (local rooms), read (verbose events), list, end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyMeetingToken } from '../../../../src/server/providers/conferencing/meeting-token.js';
import { emitConversationCallbacks } from '../../../../src/server/resources/conversations/events-store.js';
import { createFace, createPal } from '../../../helpers/fixtures.js';
import { OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';

describe('conversations (keyed)', () => {
  let t: TestService;
  let palId: string;
  let faceId: string;
  before(async () => {
    t = await startListeningService();
    ({ palId, faceId } = (await createPal(t, { pal_name: 'Concierge' })) as { palId: string; faceId: string });
  });
  after(() => t.close());

  it('creates a conversation in a local room with a meeting token for that room', async () => {
    const r = await t.api('POST', '/v2/conversations', {
      pal_id: palId,
      conversation_name: 'Support call',
      callback_url: 'https://hooks.example.com/palkit',
      conversational_context: 'The user bought a kettle.',
      custom_greeting: 'Hi, how is the kettle?',
      memory_stores: ['user-7'],
      properties: {
        max_call_duration: 600,
        participant_left_timeout: 30,
        participant_absent_timeout: 120,
        languages: ['en', 'de-DE'],
        policy: 'eu',
        enable_closed_captions: true,
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), [
      'callback_url',
      'conversation_id',
      'conversation_name',
      'conversation_url',
      'created_at',
      'meeting_token',
      'status',
    ]);
    assert.match(r.body.conversation_id, /^c[a-z0-9]+$/);
    assert.equal(r.body.conversation_name, 'Support call');
    const bare = await t.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal(bare.status, 200, JSON.stringify(bare.body));
    assert.ok(!('callback_url' in bare.body), 'callback_url is omitted when unset, never null');
    assert.equal(r.body.conversation_url, `${t.url}/rooms/${r.body.conversation_id}`);
    assert.equal(r.body.status, 'active');
    assert.equal(r.body.callback_url, 'https://hooks.example.com/palkit');
    const { secrets } = t.service.deps;
    assert.equal(verifyMeetingToken(secrets, r.body.conversation_id, r.body.meeting_token, new Date()), 'visitor');
    assert.equal(verifyMeetingToken(secrets, 'cother', r.body.meeting_token, new Date()), null, 'only for its own room');
    assert.equal(
      verifyMeetingToken(secrets, r.body.conversation_id, r.body.meeting_token, new Date(Date.now() + 600_000)),
      'visitor',
      'valid through the call',
    );
    assert.equal(
      verifyMeetingToken(secrets, r.body.conversation_id, r.body.meeting_token, new Date(Date.now() + 3_600_000)),
      null,
      'expires after the call and margin',
    );

    const got = await t.api('GET', `/v2/conversations/${r.body.conversation_id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.pal_id, palId);
    assert.equal(got.body.persona_id, palId);
    assert.equal(got.body.face_id, faceId, "the PAL's default face");
    assert.equal(got.body.replica_id, faceId);
    assert.equal(got.body.deployment_id, null);
    assert.deepEqual(got.body.memory_stores, ['user-7']);
    assert.deepEqual(got.body.properties, {
      max_call_duration: 600,
      participant_left_timeout: 30,
      participant_absent_timeout: 120,
      languages: ['en', 'de-DE'],
      policy: 'eu',
      enable_closed_captions: true,
    });
    assert.equal(got.body.status, 'active');
    assert.equal(got.body.ended_at, null);
    assert.ok(!('events' in got.body));
    assert.ok(!('meeting_token' in got.body));
  });

  it('accepts the legacy persona_id/replica_id names and an explicit face', async () => {
    const face = await createFace(t);
    const r = await t.api('POST', '/v2/conversations', { persona_id: palId, replica_id: face });
    assert.equal(r.status, 200);
    assert.equal((await t.api('GET', `/v2/conversations/${r.body.conversation_id}`)).body.face_id, face);
    assert.match(r.body.conversation_name, /Concierge/);
  });

  it('refuses bad references and bad bodies with 400 (never 500)', async () => {
    const noFacePal = await createPal(t, { default_face_id: null });
    const training = await createFace(t, { status: 'training' });
    const foreignFace = await createFace(t, { owner: 2 });
    const foreignPal = await createPal(t, { owner: 2 });
    const cases: Array<[unknown, RegExp]> = [
      [{}, /pal_id/],
      [{ pal_id: 'pmissing' }, /pal_id/],
      [{ pal_id: foreignPal.palId }, /pal_id/],
      [{ persona_id: 'pmissing' }, /persona_id/],
      [{ pal_id: noFacePal.palId }, /face_id/],
      [{ pal_id: palId, face_id: 'rmissing' }, /face_id/],
      [{ pal_id: palId, replica_id: 'rmissing' }, /replica_id/],
      [{ pal_id: palId, face_id: training }, /not ready/],
      [{ pal_id: palId, face_id: foreignFace }, /face_id/],
      [{ pal_id: palId, callback_url: 'not a url' }, /callback_url/],
      [{ pal_id: palId, callback_url: 'ftp://x.example/hook' }, /callback_url/],
      [{ pal_id: palId, properties: { policy: 'us' } }, /policy/],
      [{ pal_id: palId, properties: { max_call_duration: 'long' } }, /max_call_duration/],
      [{ pal_id: palId, properties: { max_call_duration: 0 } }, /max_call_duration/],
      [{ pal_id: palId, properties: { participant_left_timeout: -1 } }, /participant_left_timeout/],
      [{ pal_id: palId, properties: { languages: 'en' } }, /languages/],
      [{ pal_id: palId, properties: { languages: ['english!'] } }, /languages/],
      [{ pal_id: palId, properties: { enable_closed_captions: 'yes' } }, /enable_closed_captions/],
      [{ pal_id: palId, properties: 'x' }, /properties/],
      [{ pal_id: palId, memory_stores: 'user' }, /memory_stores/],
      [{ pal_id: palId, conversation_name: '' }, /conversation_name/],
      [{ pal_id: 7 }, /pal_id/],
      [[], /invalid_request/],
      ['{"pal_id": ', /malformed_json/],
    ];
    for (const [body, pattern] of cases) {
      const r = await t.api('POST', '/v2/conversations', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error, pattern, JSON.stringify(body));
    }
    assert.equal((await t.api('POST', '/v2/conversations', { pal_id: palId }, { key: null })).status, 401);
  });

  it('reads verbose events recorded for the conversation', async () => {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
    const row = await t.service.deps.db
      .selectFrom('conversations')
      .selectAll()
      .where('conversation_id', '=', r.body.conversation_id)
      .executeTakeFirstOrThrow();
    await emitConversationCallbacks(t.service.deps, row, [
      {
        conversation_id: row.conversation_id,
        event_type: 'system.pal_joined',
        message_type: 'system',
        timestamp: new Date().toISOString(),
        properties: { face_id: faceId },
      },
    ]);
    const verbose = await t.api('GET', `/v2/conversations/${row.conversation_id}?verbose=true`);
    assert.equal(verbose.status, 200);
    assert.equal(verbose.body.events.length, 1);
    assert.equal(verbose.body.events[0].event_type, 'system.pal_joined');
    assert.ok(!('events' in (await t.api('GET', `/v2/conversations/${row.conversation_id}?verbose=false`)).body));
    assert.equal((await t.api('GET', `/v2/conversations/${row.conversation_id}?verbose=maybe`)).status, 400);
  });

  it("hides other owners' conversations and answers 404/400 for missing or malformed ids", async () => {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal((await t.api('GET', `/v2/conversations/${r.body.conversation_id}`, undefined, { key: OTHER_KEY })).status, 404);
    assert.equal((await t.api('POST', `/v2/conversations/${r.body.conversation_id}/end`, undefined, { key: OTHER_KEY })).status, 404);
    assert.deepEqual((await t.api('GET', '/v2/conversations/cmissing')).body, { error: 'conversation_not_found' });
    assert.equal((await t.api('GET', '/v2/conversations/NOPE')).status, 400);
    assert.equal((await t.api('POST', '/v2/conversations/NOPE/end')).status, 400);
  });

  it('ends once: status, reason, ended_at, one bus event; repeating changes nothing', async () => {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
    const id = r.body.conversation_id;
    const seen: Array<{ conversationId: string; reason: string }> = [];
    const off = t.service.deps.bus.on('conversation.ended', (e) => seen.push(e));
    try {
      const [a, b] = await Promise.all([t.api('POST', `/v2/conversations/${id}/end`), t.api('POST', `/v2/conversations/${id}/end`)]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.equal(a.body.status, 'ended');
      assert.equal(a.body.shutdown_reason, 'end_conversation_endpoint_hit');
      assert.ok(a.body.ended_at);
      const again = await t.api('POST', `/v2/conversations/${id}/end`);
      assert.equal(again.status, 200);
      assert.equal(again.body.ended_at, a.body.ended_at);
      assert.deepEqual(seen, [{ conversationId: id, reason: 'end_conversation_endpoint_hit' }]);
    } finally {
      off();
    }
  });

  it('lists newest first with paging and a status filter', async () => {
    const mine = await Promise.all([0, 1, 2].map(() => t.api('POST', '/v2/conversations', { pal_id: palId })));
    await t.api('POST', `/v2/conversations/${mine[0]!.body.conversation_id}/end`);
    const all = await t.api('GET', '/v2/conversations?limit=100');
    assert.equal(all.status, 200);
    assert.equal(all.body.total_count, all.body.data.length);
    const times = all.body.data.map((c: { created_at: string }) => c.created_at);
    assert.deepEqual(times, [...times].sort().reverse());
    const ended = await t.api('GET', '/v2/conversations?status=ended&limit=100');
    assert.ok(ended.body.data.every((c: { status: string }) => c.status === 'ended'));
    assert.ok(ended.body.data.some((c: { conversation_id: string }) => c.conversation_id === mine[0]!.body.conversation_id));
    const active = await t.api('GET', '/v2/conversations?status=active&limit=100');
    assert.ok(active.body.data.every((c: { status: string }) => c.status === 'active'));
    assert.equal(active.body.total_count + ended.body.total_count, all.body.total_count);
    const p1 = await t.api('GET', '/v2/conversations?limit=2&page=1');
    const p2 = await t.api('GET', '/v2/conversations?limit=2&page=2');
    assert.equal(p1.body.data.length, 2);
    assert.notEqual(p1.body.data[0].conversation_id, p2.body.data[0].conversation_id);
    assert.equal((await t.api('GET', '/v2/conversations', undefined, { key: OTHER_KEY })).body.total_count, 0);
    assert.equal((await t.api('GET', '/v2/conversations?status=paused')).status, 400);
    assert.equal((await t.api('GET', '/v2/conversations?limit=1000')).status, 400);
  });

  it('documents the conversation routes', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    assert.ok(doc.paths['/v2/conversations'].post.tags.includes('Conversations'));
    assert.ok(doc.paths['/v2/conversations'].get);
    assert.ok(doc.paths['/v2/conversations/{conversation_id}'].get);
    assert.ok(doc.paths['/v2/conversations/{conversation_id}/end'].post);
    assert.ok(doc.components.schemas.ConversationProperties.properties.policy);
  });
});
