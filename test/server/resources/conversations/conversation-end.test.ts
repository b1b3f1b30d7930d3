// How local conversations end: max_call_duration, participant_left_timeout, participant_absent_timeout,
// the end endpoint (bus, or the database for another instance), and a room that died with its process;
// then the `ended` frame, system.shutdown and application.transcription_ready with the transcript.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RoomCloseCode } from '../../../../src/protocol/room.js';
import { parseConversationCallback, ShutdownReasons } from '../../../../src/protocol/callbacks.js';
import { listConversationEvents } from '../../../../src/server/resources/conversations/events-store.js';
import { hubFor } from '../../../../src/server/live/hub/hub.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { ManualClock } from '../../../helpers/clock.js';
import {
  insertConversation,
  insertFace,
  insertPal,
  RoomClient,
  startCallbackReceiver,
  token,
  type CallbackReceiver,
} from '../../../helpers/live-fixtures.js';

describe('conversation end', () => {
  let t: TestService;
  let receiver: CallbackReceiver;
  let palId: string;
  let faceId: string;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000', PALKIT_ROOM_POLL_MS: '200' });
    receiver = await startCallbackReceiver();
    faceId = await insertFace(t);
    palId = await insertPal(t, { pipelineMode: 'echo', faceId });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const callbacksOf = (id: string) => receiver.bodies.filter((b) => b.conversation_id === id);
  const waitForShutdown = (id: string) =>
    receiver.waitFor(() => callbacksOf(id).some((b) => b.event_type === 'application.transcription_ready'), 10_000);

  it('ends at once when the only visitor leaves with End, with every turn in the transcript within 5 s', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url, customGreeting: 'Hi.' });
    // The visitor first: the PAL greets as soon as the room opens, and she is to hear it.
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const operator = await RoomClient.join(room.conversationUrl, token(t, room.conversationId, { role: 'operator' }));
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === 'Hi.');
    client.say('conversation.respond', { text: 'Thanks, bye.' });
    await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica' && m.properties.speech === 'Thanks, bye.');
    // At once: the ended frame within the 5 s the wait allows, where a plain leave waits participant_left_timeout (60 s).
    client.send({ type: 'leave', end: true });
    await operator.waitFor((f) => f.type === 'ended', 5000);
    await waitForShutdown(room.conversationId);
    const bodies = callbacksOf(room.conversationId);
    assert.equal(
      bodies.find((b) => b.event_type === 'system.shutdown')!.properties.shutdown_reason,
      ShutdownReasons.participantLeftTimeout,
    );
    const transcript = bodies.find((b) => b.event_type === 'application.transcription_ready')!.properties.transcript as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(
      transcript.map((e) => e.content),
      ['Hi.', 'Thanks, bye.', 'Thanks, bye.'],
    );
    assert.ok((transcript[0]!.duration as number) > 0, 'the greeting lasted');
  });

  it('notices an end requested on another instance by polling the database', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await t.service.deps.db
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: ShutdownReasons.endEndpointHit, ended_at: new Date() })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    const ended = await client.waitFor((f) => f.type === 'ended', 3000);
    assert.deepEqual(ended, { type: 'ended', reason: 'end_conversation_endpoint_hit' });
    await waitForShutdown(room.conversationId);
  });

  it('sends the end callbacks of a conversation ended before anyone joined', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url });
    await t.service.deps.db
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: ShutdownReasons.endEndpointHit, ended_at: new Date() })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    t.service.deps.bus.emit('conversation.ended', { conversationId: room.conversationId, reason: ShutdownReasons.endEndpointHit });
    await waitForShutdown(room.conversationId);
    assert.deepEqual(
      callbacksOf(room.conversationId).map((b) => b.event_type),
      ['system.shutdown', 'application.transcription_ready'],
    );
  });

  it('finishes a room whose process died, from the deadlines kept in the database', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url, properties: { participant_left_timeout: 2 } });
    const { db } = t.service.deps;
    const lastBeat = new Date(Date.now() - 10_000);
    // What the dead instance left behind: a started room, a stale heartbeat, the transcript so far.
    await db
      .updateTable('conversations')
      .set({ live_started_at: new Date(Date.now() - 20_000), live_heartbeat_at: lastBeat })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    await db
      .insertInto('conversation_transcript_entries')
      .values({
        conversation_id: room.conversationId,
        role: 'user',
        content: 'Are you still there?',
        started_at: lastBeat.getTime() / 1000 - 5,
        seconds_from_start: 5,
        duration: 0,
        inference_id: null,
        participant_name: 'Dana',
      })
      .execute();
    await waitForShutdown(room.conversationId);
    const bodies = callbacksOf(room.conversationId);
    assert.equal(bodies[0]!.properties.shutdown_reason, 'participant_left_timeout reached');
    assert.deepEqual(bodies[1]!.properties.transcript, [
      {
        role: 'user',
        content: 'Are you still there?',
        timestamp: lastBeat.getTime() / 1000 - 5,
        seconds_from_start: 5,
        duration: 0,
        participant_name: 'Dana',
      },
    ]);
  });
});

// The participant_left_timeout on a clock the test moves (test/helpers/clock.ts): the room's deadline timer
// runs on the service's clock, so the test shows "not yet" and "now" at exact times instead of sleeping.
describe('conversation end, on the test clock', () => {
  let t: TestService;
  let receiver: CallbackReceiver;
  let palId: string;
  let faceId: string;
  const clock = new ManualClock();
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000' }, { clock });
    receiver = await startCallbackReceiver();
    faceId = await insertFace(t);
    palId = await insertPal(t, { pipelineMode: 'echo', faceId });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const callbacksOf = (id: string) => receiver.bodies.filter((b) => b.conversation_id === id);
  const waitForShutdown = (id: string) =>
    receiver.waitFor(() => callbacksOf(id).some((b) => b.event_type === 'application.transcription_ready'), 10_000);
  const row = (id: string) =>
    t.service.deps.db.selectFrom('conversations').selectAll().where('conversation_id', '=', id).executeTakeFirstOrThrow();
  /** The room has taken in what a client sent: its socket is closed on our side and the server's frames are read. */
  const settled = () => clock.drain(50);

  it('ends on max_call_duration with the ended frame, callbacks in order and the full transcript', async () => {
    const room = await insertConversation(t, {
      palId,
      callbackUrl: receiver.url,
      customGreeting: 'Hello Dana.',
      properties: { max_call_duration: 2 },
      createdAt: clock.now(),
    });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === 'Hello Dana.');
    // The visitor answers half a second later. On a clock that stood still, the greeting and the question
    // began at the same instant, and the transcript (ordered by when each began) had them in the order their
    // writes happened to land (the question first, once, on PostgreSQL).
    await clock.advance(500);
    client.say('conversation.respond', { text: 'How long is this call?' });
    await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'How long is this call?',
    );
    await settled();
    await clock.advance(1_499);
    await settled();
    assert.equal((await row(room.conversationId)).status, 'active', 'not before max_call_duration');
    await clock.advance(1);
    const ended = await client.waitFor((f) => f.type === 'ended', 5000);
    assert.deepEqual(ended, { type: 'ended', reason: ShutdownReasons.maxCallDuration });
    assert.equal((await client.closed).code, RoomCloseCode.ended);

    await waitForShutdown(room.conversationId);
    const bodies = callbacksOf(room.conversationId);
    assert.deepEqual(
      bodies.map((b) => b.event_type),
      ['system.pal_joined', 'system.replica_joined', 'system.shutdown', 'application.transcription_ready'],
    );
    for (const body of bodies) assert.ok(parseConversationCallback(body), `${body.event_type} matches its schema`);
    assert.deepEqual(bodies[2]!.properties, { face_id: faceId, shutdown_reason: 'max_call_duration reached' });
    const transcript = bodies[3]!.properties.transcript as Array<Record<string, unknown>>;
    assert.equal(bodies[3]!.properties.face_id, faceId);
    assert.deepEqual(
      transcript.map((e) => [e.role, e.content]),
      [
        ['assistant', 'Hello Dana.'],
        ['user', 'How long is this call?'],
        ['assistant', 'How long is this call?'],
      ],
    );
    assert.deepEqual(Object.keys(transcript[0]!).sort(), [
      'content',
      'duration',
      'inference_id',
      'role',
      'seconds_from_start',
      'timestamp',
    ]);
    assert.deepEqual(Object.keys(transcript[1]!).sort(), [
      'content',
      'duration',
      'participant_name',
      'role',
      'seconds_from_start',
      'timestamp',
    ]);
    assert.equal(transcript[1]!.participant_name, 'Dana');
    const times = transcript.map((e) => e.timestamp as number);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    assert.ok(Math.abs(times[0]! - clock.now().getTime() / 1000) < 30, 'epoch seconds, from the service clock');
    assert.ok((transcript[2]!.seconds_from_start as number) >= (transcript[1]!.seconds_from_start as number));
    // Speech is timed on the service's clock, which stood still while the greeting played (the End test above times it on the real one).
    assert.equal(transcript[0]!.duration, 0);

    const stored = await row(room.conversationId);
    assert.equal(stored.status, 'ended');
    assert.equal(stored.shutdown_reason, 'max_call_duration reached');
    assert.ok(stored.ended_at && stored.live_finalized_at);
    // The verbose read's `events` carry the same payloads.
    assert.deepEqual(await listConversationEvents(t.service.deps.db, room.conversationId), bodies);
  });

  it('ends at once when the end endpoint announces it on the bus', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.utterance');
    // What the conversations area does: mark the row ended, then tell this instance.
    await t.service.deps.db
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: ShutdownReasons.endEndpointHit, ended_at: clock.now() })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    // The clock stands still: the room's poll of the database (PALKIT_ROOM_POLL_MS) cannot be what ends it.
    t.service.deps.bus.emit('conversation.ended', { conversationId: room.conversationId, reason: ShutdownReasons.endEndpointHit });
    const ended = await client.waitFor((f) => f.type === 'ended');
    assert.deepEqual(ended, { type: 'ended', reason: 'end_conversation_endpoint_hit' });
    await waitForShutdown(room.conversationId);
    assert.equal(callbacksOf(room.conversationId).filter((b) => b.event_type === 'system.shutdown').length, 1);
  });

  // A minute, as by default: on real timers the room would not end within waitForShutdown's 10 s.
  it('ends participant_left_timeout after everyone left, unless somebody comes back in time', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url, properties: { participant_left_timeout: 60 } });
    const first = await RoomClient.join(room.conversationUrl, room.token);
    first.close();
    await first.closed;
    await settled();
    await clock.advance(29_999);
    const second = await RoomClient.join(room.conversationUrl, room.token);
    await clock.advance(60_000);
    await settled();
    assert.equal((await row(room.conversationId)).status, 'active', 'the rejoin cancelled the timeout');
    second.close();
    await second.closed;
    await settled();
    await clock.advance(59_000);
    await settled();
    assert.equal((await row(room.conversationId)).status, 'active', 'not before the timeout');
    await clock.advance(1_000);
    await waitForShutdown(room.conversationId);
    const shutdown = callbacksOf(room.conversationId).find((b) => b.event_type === 'system.shutdown')!;
    assert.equal(shutdown.properties.shutdown_reason, 'participant_left_timeout reached');
    assert.equal((await row(room.conversationId)).shutdown_reason, 'participant_left_timeout reached');
  });

  // The hub's poll of the database ends it (nobody holds a room for it): called here at the exact times,
  // where on real timers the test slept through the timeout and a poll.
  it('ends participant_absent_timeout when nobody joins', async () => {
    const room = await insertConversation(t, {
      palId,
      callbackUrl: receiver.url,
      properties: { participant_absent_timeout: 30 },
      createdAt: clock.now(),
    });
    await clock.advance(29_999);
    await hubFor(t.service.deps).poll();
    assert.equal((await row(room.conversationId)).status, 'active', 'not before participant_absent_timeout');
    assert.deepEqual(callbacksOf(room.conversationId), []);
    await clock.advance(1);
    await hubFor(t.service.deps).poll();
    await waitForShutdown(room.conversationId);
    const bodies = callbacksOf(room.conversationId);
    assert.deepEqual(
      bodies.map((b) => b.event_type),
      ['system.shutdown', 'application.transcription_ready'],
    );
    assert.equal(bodies[0]!.properties.shutdown_reason, 'participant_absent_timeout reached');
    assert.deepEqual(bodies[1]!.properties.transcript, []);
    const client = await RoomClient.open(room.conversationUrl);
    client.send({ type: 'join', meeting_token: room.token });
    assert.equal((await client.closed).code, RoomCloseCode.ended);
  });

  it('a plain leave (a closed tab) still waits for participant_left_timeout', async () => {
    const other = await insertConversation(t, { palId, callbackUrl: receiver.url });
    const visitor = await RoomClient.join(other.conversationUrl, other.token);
    visitor.send({ type: 'leave' });
    await settled();
    await clock.advance(59_000);
    await settled();
    assert.equal((await row(other.conversationId)).status, 'active');
    visitor.close();
  });
});
