// Daily's webhooks turned into conversation callbacks: signature checks, the bot's join, the meeting's
// end with the transcript the runner reported, and redeliveries that change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DAILY_KEY,
  DAILY_WEBHOOK_SECRET,
  dailyEvent,
  RUNNER_SECRET,
  startFakeDaily,
  startFakeRunner,
} from '../../../helpers/fake-daily.js';
import { createPal } from '../../../helpers/fixtures.js';
import { sql } from 'kysely';
import { DAILY_LEFT_DEADLINE_JOB } from '../../../../src/server/live/conferencing/daily-deadlines.js';
import { startCallbackReceiver, type CallbackReceiver } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';

describe('Daily webhooks', () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let runner: Awaited<ReturnType<typeof startFakeRunner>>;
  let receiver: CallbackReceiver;
  let t: TestService;
  let palId: string;
  let faceId: string | null;

  before(async () => {
    daily = await startFakeDaily();
    runner = await startFakeRunner();
    receiver = await startCallbackReceiver();
    t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_DAILY_WEBHOOK_SECRET: DAILY_WEBHOOK_SECRET,
      PALKIT_PAL_RUNNER_URL: runner.url,
      PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
    });
    ({ palId, faceId } = await createPal(t, { pal_name: 'Ada' }));
  });
  after(async () => {
    await t.close();
    await Promise.all([daily.close(), runner.close(), receiver.close()]);
  });

  /** A started conversation with its runner handoff. */
  async function start() {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const handoff = runner.requests.find((q) => q.body.conversation_id === r.body.conversation_id)!.body;
    return { id: r.body.conversation_id as string, handoff };
  }
  const post = async (event: { body: string; headers: Record<string, string> }) => {
    const response = await fetch(`${t.url}/v2/daily/webhooks`, { method: 'POST', headers: event.headers, body: event.body });
    return { status: response.status, body: await response.json() };
  };
  /** Every job due now (the callbacks' deliveries among them) has run: what was going to be sent has been. */
  const settled = () => t.service.deps.jobs.drain();
  const eventsOf = (id: string) => receiver.bodies.filter((b) => b.conversation_id === id).map((b) => b.event_type);
  const botJoined = (room: string, extra: Record<string, unknown> = {}) =>
    dailyEvent('participant.joined', {
      room,
      user_id: `pal_${palId}`,
      user_name: 'Ada',
      session_id: 'sess-bot',
      joined_at: Date.now() / 1000,
      owner: true,
      will_eject_at: 0,
      permissions: { hasPresence: true },
      ...extra,
    });

  it("answers Daily's verification ping with 200", async () => {
    const r = await fetch(`${t.url}/v2/daily/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"test":"test"}',
    });
    assert.equal(r.status, 200);
  });

  it('refuses wrong, missing and stale signatures with 401, and changes nothing', async () => {
    const { id } = await start();
    const forged = botJoined(id, {});
    const wrongSecret = dailyEvent(
      'participant.joined',
      { room: id, user_id: `pal_${palId}` },
      { secret: Buffer.from('not-the-secret').toString('base64') },
    );
    const tampered = { ...forged, body: forged.body.replace('sess-bot', 'sess-evil') };
    const unsigned = { body: forged.body, headers: { 'content-type': 'application/json' } };
    const stale = dailyEvent(
      'meeting.ended',
      { room: id, start_ts: 1, end_ts: 2, meeting_id: 'm1' },
      { timestamp: Math.floor(Date.now() / 1000) - 3600 },
    );
    for (const event of [wrongSecret, tampered, unsigned, stale]) {
      const r = await post(event);
      assert.equal(r.status, 401, JSON.stringify(r.body));
      assert.ok(typeof r.body.message === 'string');
    }
    const garbage = await fetch(`${t.url}/v2/daily/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-timestamp': 'abc', 'x-webhook-signature': '!!' },
      body: 'not json',
    });
    assert.equal(garbage.status, 401, 'never a 500');
    await settled();
    assert.deepEqual(eventsOf(id), []);
    assert.equal((await t.api('GET', `/v2/conversations/${id}`)).body.status, 'active');
  });

  it("sends system.pal_joined and system.replica_joined once when the runner's bot joins, and nothing for the visitor", async () => {
    const { id } = await start();
    assert.equal(
      (
        await post(
          dailyEvent('participant.joined', { room: id, user_id: 'visitor-uuid', user_name: 'Guest', session_id: 'sess-v', owner: false }),
        )
      ).status,
      200,
    );
    const event = botJoined(id);
    assert.deepEqual(await post(event), { status: 200, body: { received: true } });
    await receiver.waitFor((b) => b.filter((x) => x.conversation_id === id).length >= 2);
    assert.equal((await post(event)).status, 200, 'a redelivery is acknowledged');
    assert.equal((await post(botJoined(id, { session_id: 'sess-bot-2' }))).status, 200, 'a rejoin is acknowledged');
    await settled();
    assert.deepEqual(eventsOf(id), ['system.pal_joined', 'system.replica_joined']);
    const [joined, legacy] = receiver.bodies.filter((b) => b.conversation_id === id);
    assert.deepEqual(joined!.properties, { face_id: faceId });
    assert.deepEqual(legacy!.properties, joined!.properties);
    assert.equal(joined!.message_type, 'system');
  });

  it('meeting.ended ends the conversation and sends the shutdown and the transcript the runner reported, once', async () => {
    const { id, handoff } = await start();
    await post(botJoined(id));
    // Two separate sends are two delivery groups; in a real call the join is long delivered before the end.
    await receiver.waitFor((b) => b.filter((x) => x.conversation_id === id).length >= 2);
    const t0 = Date.now() / 1000;
    const entries = [
      { role: 'assistant', content: 'Hi, I am Ada.', timestamp: t0, seconds_from_start: 0.2, duration: 1.1, inference_id: 'inf_1' },
      {
        role: 'user',
        content: 'What are your opening hours?',
        timestamp: t0 + 2,
        seconds_from_start: 2.2,
        duration: 1.8,
        participant_name: 'Guest',
      },
    ];
    const auth = { key: null, headers: { authorization: `Bearer ${handoff.api.conversation_token}` } };
    assert.equal((await t.api('POST', `/v2/conversations/${id}/runner/transcript`, { entries }, auth)).status, 200);

    const ended = dailyEvent('meeting.ended', { room: id, start_ts: Math.floor(t0), end_ts: Math.floor(t0) + 5, meeting_id: 'meeting-1' });
    assert.equal((await post(ended)).status, 200);
    await receiver.waitFor((b) => b.some((x) => x.conversation_id === id && x.event_type === 'application.transcription_ready'));
    assert.equal((await post(ended)).status, 200, 'a redelivery is acknowledged');
    await settled();
    assert.deepEqual(eventsOf(id), ['system.pal_joined', 'system.replica_joined', 'system.shutdown', 'application.transcription_ready']);
    const shutdown = receiver.bodies.find((b) => b.conversation_id === id && b.event_type === 'system.shutdown')!;
    assert.deepEqual(shutdown.properties, { face_id: faceId, shutdown_reason: 'participant_left_timeout reached' });
    const ready = receiver.bodies.find((b) => b.conversation_id === id && b.event_type === 'application.transcription_ready')!;
    assert.deepEqual(ready.properties.transcript, entries);
    const view = (await t.api('GET', `/v2/conversations/${id}?verbose=true`)).body;
    assert.equal(view.status, 'ended');
    assert.deepEqual(
      view.events.map((e: { event_type: string }) => e.event_type),
      eventsOf(id),
      'the verbose read records them in the same order',
    );
    assert.equal(
      (await t.api('POST', `/v2/conversations/${id}/runner/transcript`, { entries }, auth)).status,
      409,
      'the transcript was sent',
    );
  });

  it('an ended conversation keeps its reason when the meeting then ends', async () => {
    const { id } = await start();
    assert.equal((await t.api('POST', `/v2/conversations/${id}/end`)).status, 200);
    assert.equal((await post(dailyEvent('meeting.ended', { room: id, start_ts: 1, end_ts: 2, meeting_id: 'm2' }))).status, 200);
    await receiver.waitFor((b) => b.some((x) => x.conversation_id === id && x.event_type === 'application.transcription_ready'));
    const shutdown = receiver.bodies.find((b) => b.conversation_id === id && b.event_type === 'system.shutdown')!;
    assert.equal(shutdown.properties.shutdown_reason, 'end_conversation_endpoint_hit');
  });

  it('a conversation ended before any meeting took place still sends system.shutdown and transcription_ready, once (G12)', async () => {
    const { id } = await start();
    assert.equal((await t.api('POST', `/v2/conversations/${id}/end`)).status, 200);
    await receiver.waitFor((b) => b.some((x) => x.conversation_id === id && x.event_type === 'application.transcription_ready'));
    await settled();
    assert.deepEqual(eventsOf(id), ['system.shutdown', 'application.transcription_ready']);
    const shutdown = receiver.bodies.find((b) => b.conversation_id === id && b.event_type === 'system.shutdown')!;
    assert.deepEqual(shutdown.properties, { face_id: faceId, shutdown_reason: 'end_conversation_endpoint_hit' });
    assert.deepEqual(
      receiver.bodies.find((b) => b.conversation_id === id && b.event_type === 'application.transcription_ready')!.properties.transcript,
      [],
    );

    // When the meeting did take place, the end callbacks wait for meeting.ended (and the runner's transcript).
    const met = await start();
    await post(botJoined(met.id));
    await receiver.waitFor((b) => b.filter((x) => x.conversation_id === met.id).length >= 2);
    assert.equal((await t.api('POST', `/v2/conversations/${met.id}/end`)).status, 200);
    // The room's close job runs (Daily deletes the room) and must not send the end callbacks itself.
    await waitFor(() => !daily.rooms.has(met.id), { timeout: 15_000, interval: 100 });
    assert.equal(daily.rooms.has(met.id), false, 'room deleted');
    await settled();
    assert.deepEqual(eventsOf(met.id), ['system.pal_joined', 'system.replica_joined']);
    assert.equal((await post(dailyEvent('meeting.ended', { room: met.id, start_ts: 1, end_ts: 2, meeting_id: 'm-g12' }))).status, 200);
    await receiver.waitFor((b) => b.some((x) => x.conversation_id === met.id && x.event_type === 'application.transcription_ready'));
  });

  it('acknowledges events about rooms it does not know', async () => {
    assert.deepEqual(await post(dailyEvent('participant.left', { room: 'someone-elses-room', user_id: 'x', duration: 12 })), {
      status: 200,
      body: { received: true },
    });
  });
});

describe('Daily conversations that end by waiting', () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let runner: Awaited<ReturnType<typeof startFakeRunner>>;
  let receiver: CallbackReceiver;
  let t: TestService;
  let palId: string;

  before(async () => {
    daily = await startFakeDaily();
    runner = await startFakeRunner();
    receiver = await startCallbackReceiver();
    t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_DAILY_WEBHOOK_SECRET: DAILY_WEBHOOK_SECRET,
      PALKIT_PAL_RUNNER_URL: runner.url,
      PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
      PALKIT_PAL_RUNNER_JOIN_SECONDS: '2',
    });
    ({ palId } = await createPal(t, { pal_name: 'Ada' }));
  });
  after(async () => {
    await t.close();
    await Promise.all([daily.close(), runner.close(), receiver.close()]);
  });

  /** The statuses of the participant_left_timeout jobs a room's leaves scheduled. */
  const leftDeadlines = async (id: string) =>
    (
      await t.service.deps.db
        .selectFrom('jobs')
        .select('status')
        .where('kind', '=', DAILY_LEFT_DEADLINE_JOB)
        .where(sql<string>`payload ->> 'conversation_id'`, '=', id)
        .execute()
    ).map((j) => j.status);
  /** Waits until every participant_left_timeout job the room's leaves scheduled has run (their due time passed). */
  const deadlinesRan = (id: string, count: number) =>
    waitFor(
      async () => {
        const statuses = await leftDeadlines(id);
        return statuses.length === count && statuses.every((s) => s === 'done');
      },
      { timeout: 15_000, interval: 100, what: `${count} participant_left_timeout jobs of ${id} done` },
    );
  const post = (event: { body: string; headers: Record<string, string> }) =>
    fetch(`${t.url}/v2/daily/webhooks`, { method: 'POST', headers: event.headers, body: event.body }).then((r) => r.status);
  const statusOf = async (id: string) => (await t.api('GET', `/v2/conversations/${id}`)).body;
  const start = async (properties: Record<string, unknown> = {}) => {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url, properties });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.conversation_id as string;
  };
  const bot = (room: string) =>
    dailyEvent('participant.joined', { room, user_id: `pal_${palId}`, user_name: 'Ada', session_id: `bot-${room}`, owner: true });
  const visitor = (type: 'participant.joined' | 'participant.left', room: string, session: string) =>
    dailyEvent(type, {
      room,
      user_id: `visitor-${session}`,
      user_name: 'Guest',
      session_id: session,
      owner: false,
      ...(type === 'participant.left' ? { duration: 3 } : {}),
    });

  it('a bot that accepted the handoff but never joins ends the conversation (bot_could_not_join…) and deletes the room', async () => {
    const id = await start();
    const joined = await start();
    assert.equal(await post(bot(joined)), 200);
    await receiver.waitFor((b) => b.some((x) => x.conversation_id === id && x.event_type === 'system.shutdown'), 10_000);
    const shutdown = receiver.bodies.find((b) => b.conversation_id === id && b.event_type === 'system.shutdown')!;
    assert.equal(shutdown.properties.shutdown_reason, 'bot_could_not_join_meeting_it_was_probably_ended');
    assert.equal((await statusOf(id)).status, 'ended');
    await t.service.deps.jobs.drain();
    assert.equal(daily.rooms.has(id), false, 'the room is deleted');
    assert.equal((await statusOf(joined)).status, 'active', 'a conversation whose bot joined goes on');
  });

  it('the last visitor leaving ends the conversation after participant_left_timeout; a rejoin in time keeps it', async () => {
    const id = await start({ participant_left_timeout: 1 });
    // The rejoining room waits longer, so that a busy machine posting leave, leave, join cannot outrun it.
    const back = await start({ participant_left_timeout: 3 });
    for (const room of [id, back]) {
      assert.equal(await post(bot(room)), 200);
      assert.equal(await post(visitor('participant.joined', room, `a-${room}`)), 200);
      assert.equal(await post(visitor('participant.joined', room, `b-${room}`)), 200);
    }
    // One of two visitors leaving ends nothing.
    assert.equal(await post(visitor('participant.left', id, `a-${id}`)), 200);
    await deadlinesRan(id, 1); // the leave's timeout came and went
    assert.equal((await statusOf(id)).status, 'active', 'a visitor is still in the room');
    // The last one leaves: the conversation ends a second later.
    assert.equal(await post(visitor('participant.left', id, `b-${id}`)), 200);
    // In the other room both leave, and one comes back (a new session) before the timeout.
    assert.equal(await post(visitor('participant.left', back, `a-${back}`)), 200);
    assert.equal(await post(visitor('participant.left', back, `b-${back}`)), 200);
    assert.equal(await post(visitor('participant.joined', back, `c-${back}`)), 200);
    assert.deepEqual(await leftDeadlines(back), ['queued', 'queued'], 'the rejoin was posted within the timeout (before its deadline ran)');
    await receiver.waitFor((b) => b.some((x) => x.conversation_id === id && x.event_type === 'application.transcription_ready'), 10_000);
    const shutdown = receiver.bodies.find((b) => b.conversation_id === id && b.event_type === 'system.shutdown')!;
    assert.equal(shutdown.properties.shutdown_reason, 'participant_left_timeout reached');
    await deadlinesRan(back, 2); // past the timeout the leaving would have started
    assert.equal((await statusOf(back)).status, 'active', 'the visitor came back in time');
    assert.equal(receiver.bodies.filter((b) => b.conversation_id === id && b.event_type === 'system.shutdown').length, 1, 'one shutdown');
  });
});
