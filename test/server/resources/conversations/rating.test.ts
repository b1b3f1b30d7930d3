// The visitor's rating after the call: 1–5 stars and an optional comment, authorised by the visitor's
// meeting token, stored once, shown in the verbose read and sent as application.conversation_rated.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConversationRatedCallback } from '../../../../src/protocol/callbacks.js';
import { insertConversation, insertPal, startCallbackReceiver, token, type CallbackReceiver } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

describe('conversation rating', () => {
  let t: TestService;
  let receiver: CallbackReceiver;
  let palId: string;

  before(async () => {
    receiver = await startCallbackReceiver();
    t = await startListeningService();
    palId = await insertPal(t, {});
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const rate = (conversationId: string, body: unknown, auth: string | null) =>
    fetch(`${t.url}/v2/conversations/${conversationId}/rating`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const ratedOf = (id: string) =>
    receiver.bodies.filter((b) => b.conversation_id === id && b.event_type === 'application.conversation_rated');

  it('stores the stars and comment once, shows them in the verbose read and sends the callback once', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url });
    const r = await rate(room.conversationId, { stars: 4, comment: 'Quick and clear answers.' }, room.token);
    assert.equal(r.status, 200, await r.clone().text());
    const stored = await r.json();
    assert.equal(stored.stars, 4);
    assert.equal(stored.comment, 'Quick and clear answers.');
    assert.ok(!Number.isNaN(Date.parse(stored.rated_at)));

    const again = await rate(room.conversationId, { stars: 1 }, room.token);
    assert.equal(again.status, 409);
    assert.match((await again.json()).error, /already_rated/);

    const verbose = await t.api('GET', `/v2/conversations/${room.conversationId}?verbose=true`);
    assert.deepEqual(verbose.body.rating, stored);
    assert.equal(verbose.body.events.filter((e: { event_type: string }) => e.event_type === 'application.conversation_rated').length, 1);
    const plain = await t.api('GET', `/v2/conversations/${room.conversationId}`);
    assert.equal('rating' in plain.body, false, 'only the verbose read shows it');

    await receiver.waitFor(() => ratedOf(room.conversationId).length > 0, 10_000);
    await t.service.deps.jobs.drain();
    const sent = ratedOf(room.conversationId);
    assert.equal(sent.length, 1);
    assert.ok(ConversationRatedCallback.safeParse(sent[0]).success, JSON.stringify(sent[0]));
    assert.deepEqual(sent[0]!.properties, stored);
  });

  it('refuses bad ratings with 400 and stores nothing', async () => {
    const room = await insertConversation(t, { palId });
    for (const body of [
      { stars: 0 },
      { stars: 6 },
      { stars: 3.5 },
      { stars: '5' },
      {},
      { stars: 5, comment: 'x'.repeat(1001) },
      { stars: 5, extra: true },
      '{"stars":',
    ]) {
      const r = await rate(room.conversationId, body, room.token);
      assert.equal(r.status, 400, `${JSON.stringify(body)} → ${r.status}`);
      assert.equal(typeof (await r.json()).error, 'string');
    }
    const rows = await t.service.deps.db
      .selectFrom('conversation_ratings')
      .selectAll()
      .where('conversation_id', '=', room.conversationId)
      .execute();
    assert.equal(rows.length, 0);
  });

  it('needs the visitor’s own meeting token', async () => {
    const room = await insertConversation(t, { palId });
    const other = await insertConversation(t, { palId });
    assert.equal((await rate(room.conversationId, { stars: 5 }, null)).status, 401);
    assert.equal((await rate(room.conversationId, { stars: 5 }, other.token)).status, 401, 'another room’s token');
    assert.equal(
      (await rate(room.conversationId, { stars: 5 }, token(t, room.conversationId, { role: 'operator' }))).status,
      401,
      'an operator token',
    );
    assert.equal(
      (await rate(room.conversationId, { stars: 5 }, token(t, room.conversationId, { expiresAt: new Date(Date.now() - 1000) }))).status,
      401,
      'expired',
    );
    const missing = 'cnotthere12345';
    assert.equal((await rate(missing, { stars: 5 }, token(t, missing))).status, 404);
  });

  it('is in the OpenAPI document', async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    assert.ok(doc.paths['/v2/conversations/{conversation_id}/rating']?.post);
  });
});
