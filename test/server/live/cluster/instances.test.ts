// Several service instances on one PostgreSQL serve any request: a local room opened through one is
// joined, heard and answered through another (its traffic relayed over LISTEN/NOTIFY), a room whose
// instance stops is taken over, start limits stay exact across instances, and each job runs once.
// PostgreSQL only: PGlite's database belongs to one process.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PayloadAssembler, toPayloads } from '../../../../src/server/live/cluster/instance-channel.js';
import { startFakeSpeechServices, type FakeSpeechServices } from '../../../helpers/fake-speech.js';
import { createPal } from '../../../helpers/fixtures.js';
import { RoomClient, token } from '../../../helpers/live-fixtures.js';
import { onPostgres, startListeningService, type TestService } from '../../../helpers/service.js';
import { speech, talk } from '../../../helpers/voice.js';

describe('several instances on one PostgreSQL', { skip: !onPostgres && 'needs PostgreSQL (PALKIT_TEST_DATABASE_URL)' }, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let fake: FakeSpeechServices;
  let env: Record<string, string>;
  let a: TestService;
  let b: TestService;
  let palId: string;

  const instance = () => startListeningService(env, { schema });
  /** The same room's address on another instance (any instance serves any room). */
  const via = (t: TestService, conversationUrl: string) => conversationUrl.replace(/^http:\/\/[^/]+/, t.url);
  const holderOf = async (conversationId: string) =>
    (
      await a.service.deps.db
        .selectFrom('conversations')
        .select('live_holder')
        .where('conversation_id', '=', conversationId)
        .executeTakeFirstOrThrow()
    ).live_holder;

  before(async () => {
    fake = await startFakeSpeechServices({ transcript: 'Are you open on Sunday?' });
    env = {
      PALKIT_SECRET: 'one-secret-for-every-instance',
      PALKIT_ROOM_POLL_MS: '200',
      PALKIT_PAL_WORDS_PER_MINUTE: '6000',
      PALKIT_STT_BASE_URL: `${fake.url}/v1/`,
      PALKIT_STT_API_KEY: 'sk-stt',
    };
    a = await instance();
    b = await instance();
    ({ palId } = await createPal(a));
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await fake?.close();
  });

  async function conversation(through: TestService): Promise<{ id: string; url: string; token: string }> {
    const r = await through.api('POST', '/v2/conversations', { pal_id: palId, custom_greeting: 'Hello there.' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return { id: r.body.conversation_id, url: r.body.conversation_url, token: r.body.meeting_token };
  }

  // A bound so a lost turn fails, not a measure: the turn crosses two instances, PostgreSQL and the fake
  // speech service, and a gate with its two cores busy once took over 10 s.
  const HEARD_WITHIN_MS = 30_000;

  it('a room opened through one instance is joined, heard and answered through the other', async () => {
    const room = await conversation(a);
    const ana = await RoomClient.join(room.url, room.token, 'Ana');
    await ana.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica' && m.properties.speech === 'Hello there.');
    const holder = await holderOf(room.id);
    assert.ok(holder, 'the instance Ana joined holds the room');

    // Ben reaches the other instance, with a token of his own.
    const benToken = token(a, room.id, { expiresAt: new Date(Date.now() + 7_200_000) });
    const ben = await RoomClient.join(via(b, room.url), benToken, 'Ben');
    const joined = ben.frames.find((f) => f.type === 'joined');
    assert.ok(joined?.type === 'joined');
    assert.equal(joined.participants.filter((p) => p.role === 'pal').length, 1, "one PAL, the holder's");
    assert.equal(await holderOf(room.id), holder, 'the room stayed with its holder');

    // Ben speaks into his microphone on instance B; the PAL on A hears and answers, in words and voice, to both.
    const silence = new Int16Array(16000);
    const voiceBefore = ben.audio.length;
    await talk(ben, silence);
    await talk(ben, speech('Are you open on Sunday?'));
    await talk(ben, silence);
    const heard = await ben.waitForEvent('conversation.utterance', (m) => m.properties.role === 'user', HEARD_WITHIN_MS);
    assert.equal(heard.properties.speech, 'Are you open on Sunday?');
    await ana.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'Are you open on Sunday?',
      HEARD_WITHIN_MS,
    );
    await ben.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'Are you open on Sunday?',
      HEARD_WITHIN_MS,
    );
    await ben.until(() => (ben.audio.length > voiceBefore ? true : undefined), HEARD_WITHIN_MS, "the PAL's voice relayed to Ben");
    assert.ok(
      ben.audio.slice(voiceBefore).some((f) => f.samples.some((s) => Math.abs(s) > 1000)),
      "Ben hears the PAL's voice, not silence",
    );
    // Sample for sample what Ana hears on the holder (a voice frame is larger than one NOTIFY: sent in parts).
    const samples = (client: RoomClient) =>
      Buffer.from(client.audio.at(-1)!.samples.buffer, client.audio.at(-1)!.samples.byteOffset, client.audio.at(-1)!.samples.byteLength);
    await ana.until(() => (samples(ana).equals(samples(ben)) ? true : undefined), 5000, 'the same voice on both instances');

    // Visitors reach each other across instances, an operator reaches the room through either instance.
    ben.send({ type: 'app-message', data: { hello: 'from B' } });
    await ana.waitFor((f) => f.type === 'app-message' && (f.data as { hello?: string }).hello === 'from B');
    const pushed = await b.api('POST', `/v2/conversations/${room.id}/events`, {
      event_type: 'conversation.echo',
      properties: { text: 'Pushed through B.' },
    });
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal(pushed.body.participants, 2);
    await ana.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica' && m.properties.speech === 'Pushed through B.');

    // Ben leaves on B: Ana sees it on A. Ending through B ends the room on A for everyone.
    const benId = ben.participantId;
    ben.close();
    await ana.waitFor((f) => f.type === 'participant-left' && f.participant_id === benId);
    const ben2 = await RoomClient.join(via(b, room.url), benToken, 'Ben');
    assert.equal((await b.api('POST', `/v2/conversations/${room.id}/end`)).status, 200);
    for (const client of [ana, ben2]) {
      await client.waitFor((f) => f.type === 'ended', 3000);
      assert.equal((await client.closed).code, 4410);
    }
  });

  it('a room whose instance stops is taken over: its visitors join again and the PAL answers from the new holder', async () => {
    const c = await instance();
    let stopped = false;
    try {
      const room = await conversation(c);
      const first = await RoomClient.join(room.url, room.token, 'Cleo');
      await first.waitForEvent('conversation.utterance', (m) => m.properties.speech === 'Hello there.');
      const holder = await holderOf(room.id);
      const relayed = await RoomClient.join(via(b, room.url), room.token, 'Cleo'); // the same visitor, reconnected through B
      assert.equal((await first.closed).code, 4409, 'the newer connection replaces the older one across instances');
      await c.close();
      stopped = true;
      assert.equal((await relayed.closed).code, 1012, 'told to join again');
      const again = await RoomClient.join(via(b, room.url), room.token, 'Cleo');
      assert.notEqual(await holderOf(room.id), holder, 'another instance holds the room now');
      again.say('conversation.respond', { text: 'Still there?' });
      await again.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica' && m.properties.speech === 'Still there?');
      again.close();
    } finally {
      if (!stopped) await c.close();
    }
  });

  it('20 concurrent starts split across both instances respect the limits exactly', async () => {
    for (const limits of [{ total_call_limit: 7 }, { max_concurrent_calls: 5 }]) {
      const created = await a.api('POST', '/v2/deployments', { pal_id: palId, channel: 'widget', limits });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.deployment_id as string;
      assert.equal((await b.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status, 200);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).api('POST', `/v2/deployments/${id}/start`, {}, { key: null })),
      );
      const expected = Object.values(limits)[0]!;
      assert.equal(
        results.filter((r) => r.status === 200).length,
        expected,
        `${JSON.stringify(limits)}: ${results.map((r) => r.status).join(',')}`,
      );
      assert.ok(results.every((r) => r.status === 200 || r.status === 429));
      assert.equal((await a.api('GET', `/v2/deployments/${id}`)).body.usage_total, expected);
    }
  });

  it('password guesses from one visitor are counted across instances: the ninth is locked out on either', async () => {
    const created = await a.api('POST', '/v2/deployments', { pal_id: palId, channel: 'widget', password: 'the-right-one' });
    const id = created.body.deployment_id as string;
    assert.equal((await a.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status, 200);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await (i % 2 ? b : a).api('POST', `/v2/deployments/${id}/start`, { password: `guess-${i}` }, { key: null })).status);
    assert.deepEqual(statuses, [403, 403, 403, 403, 403, 403, 403, 403, 429, 429]);
    assert.equal(
      (await b.api('POST', `/v2/deployments/${id}/start`, { password: 'the-right-one' }, { key: null })).status,
      429,
      'locked even for the right password',
    );
  });

  it('each job runs once, whichever instance claims it', async () => {
    const runs = new Map<number, number>();
    for (const t of [a, b])
      t.service.deps.jobs.register('test.count', async ({ jobId }) => void runs.set(jobId, (runs.get(jobId) ?? 0) + 1));
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a).service.deps.jobs.enqueue('test.count', { i })));
    await Promise.all([a.service.deps.jobs.drain(10_000), b.service.deps.jobs.drain(10_000)]);
    assert.deepEqual(
      [...runs.keys()].sort((x, y) => x - y),
      [...ids].sort((x, y) => x - y),
    );
    assert.ok(
      [...runs.values()].every((n) => n === 1),
      'no job ran twice',
    );
  });
});

describe("the instance channel's payloads", () => {
  it('a message longer than one NOTIFY travels in parts and arrives whole, text of any script included', () => {
    const message = { k: 'send', m: 'i1.1', d: 'Grüße, 世界 🌍 '.repeat(2000) };
    const payloads = toPayloads(message);
    assert.ok(payloads.length > 1 && payloads.every((p) => Buffer.byteLength(p) < 8000), "each part fits PostgreSQL's 8,000-byte limit");
    const assembler = new PayloadAssembler();
    const results = payloads.map((p) => assembler.accept(p));
    assert.deepEqual(
      results.slice(0, -1),
      payloads.slice(0, -1).map(() => null),
    );
    assert.deepEqual(results.at(-1), message);
    assert.deepEqual(toPayloads({ k: 'gone', m: 'i1.1' }), ['{"k":"gone","m":"i1.1"}'], 'a short message is one payload');
    assert.equal(assembler.accept('not json'), null);
  });
});
