// A room's holder that stops answering on the room channel while its heartbeat stays fresh (as a killed
// instance's does for seconds) is found out by asking it (live/cluster/holder-liveness.ts): a join that
// reaches another instance takes the room over within about a second, and an instance relaying a
// participant to it tells that participant to join again. Here the holder's channel is closed while its
// process (and heartbeat) goes on. PostgreSQL only: PGlite's database belongs to one process.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { hubFor } from '../../../../src/server/live/hub/hub.js';
import { createPal } from '../../../helpers/fixtures.js';
import { RoomClient } from '../../../helpers/live-fixtures.js';
import { onPostgres, startListeningService, type TestService } from '../../../helpers/service.js';
import { HOLDER_ANSWER_MS } from '../../../../src/server/live/cluster/holder-liveness.js';

describe("a room's holder that does not answer", { skip: !onPostgres && 'needs PostgreSQL (PALKIT_TEST_DATABASE_URL)' }, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  // The heartbeat is the default's (3 s, fresh for 10 s): only asking the holder can find it silent in time.
  const env = { PALKIT_SECRET: 'one-secret-for-every-instance', PALKIT_PAL_WORDS_PER_MINUTE: '6000' };
  const started: TestService[] = [];
  let palId = '';

  const instance = async () => {
    const t = await startListeningService(env, { schema });
    started.push(t);
    return t;
  };
  const via = (t: TestService, conversationUrl: string) => conversationUrl.replace(/^http:\/\/[^/]+/, t.url);
  const holderOf = async (t: TestService, conversationId: string) =>
    (
      await t.service.deps.db
        .selectFrom('conversations')
        .select('live_holder')
        .where('conversation_id', '=', conversationId)
        .executeTakeFirstOrThrow()
    ).live_holder;
  /** The holder goes silent on the room channel; its process, pool and heartbeat go on. */
  const silence = (t: TestService) => (hubFor(t.service.deps) as unknown as { channel: { close(): Promise<void> } }).channel.close();

  before(async () => {
    const first = await instance();
    ({ palId } = await createPal(first));
  });
  after(async () => {
    await Promise.all(started.map((t) => t.close()));
  });

  async function callOn(holder: TestService): Promise<{ id: string; url: string; token: string; visitor: RoomClient }> {
    const r = await holder.api('POST', '/v2/conversations', { pal_id: palId, custom_greeting: 'Hello there.' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const visitor = await RoomClient.join(r.body.conversation_url, r.body.meeting_token, 'Ana');
    await visitor.waitForEvent('conversation.replica.stopped_speaking', () => true, 10_000);
    assert.equal(await holderOf(holder, r.body.conversation_id), hubFor(holder.service.deps).instanceId);
    return { id: r.body.conversation_id, url: r.body.conversation_url, token: r.body.meeting_token, visitor };
  }

  it('a join reaching another instance takes the room over within about a second, and the PAL answers there', async () => {
    const a = await instance();
    const b = await instance();
    const call = await callOn(a);
    await silence(a);
    const joining = performance.now();
    const again = await RoomClient.join(via(b, call.url), call.token, 'Ana');
    const tookMs = performance.now() - joining;
    console.log(`# joined again through the other instance after ${tookMs.toFixed(0)} ms`);
    assert.ok(tookMs >= HOLDER_ANSWER_MS - 50 && tookMs < HOLDER_ANSWER_MS + 1_500, `taken over after ${tookMs.toFixed(0)} ms`);
    assert.equal(await holderOf(b, call.id), hubFor(b.service.deps).instanceId, 'the instance the join reached holds the room');
    again.say('conversation.respond', { text: 'Still there?' });
    await again.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'Still there?',
      10_000,
    );
    again.close();
  });

  it('an instance relaying a participant to a silent holder lets go of the room and tells the participant to join again', async () => {
    const a = await instance();
    const b = await instance();
    const call = await callOn(a);
    const relayed = await RoomClient.join(via(b, call.url), call.token, 'Ana');
    assert.equal((await call.visitor.closed).code, 4409, 'Ana now speaks through B');
    relayed.say('conversation.respond', { text: 'Relayed?' });
    await relayed.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'Relayed?',
      10_000,
    );
    await silence(a);
    const silentAt = performance.now();
    const { code } = await relayed.closed;
    const toldMs = performance.now() - silentAt;
    console.log(`# the relayed participant was told to join again ${toldMs.toFixed(0)} ms after its room's holder went silent`);
    assert.equal(code, 1012);
    assert.ok(toldMs < HOLDER_ANSWER_MS + 1_500, `told after ${toldMs.toFixed(0)} ms`);
    assert.equal(await holderOf(b, call.id), null, "the silent holder's claim let go");
    // The silent holder is alive: its next heartbeat must not take the room back.
    await hubFor(a.service.deps).poll();
    assert.equal(await holderOf(b, call.id), null, "the silent holder's heartbeat leaves the room free");
    const back = await RoomClient.join(via(b, call.url), call.token, 'Ana');
    assert.equal(await holderOf(b, call.id), hubFor(b.service.deps).instanceId);
    back.close();
  });
});
