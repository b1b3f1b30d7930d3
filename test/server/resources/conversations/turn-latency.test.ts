// What visitors heard, reported by their pages over the room socket (issue 26): the `turn-latency` frame is
// validated (bad figures refused, nothing stored), stored with the conversation (verbose read), counted in
// /metrics histograms, and summed up as p50/p95 in application.transcription_ready. A report counts only
// for a reply the PAL made in that room, once, with waits it could have had (issue 34, item 11).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseConversationCallback } from '../../../../src/protocol/callbacks.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import {
  insertConversation,
  insertFace,
  insertPal,
  RoomClient,
  startCallbackReceiver,
  type CallbackReceiver,
} from '../../../helpers/live-fixtures.js';
import { waitFor } from '../../../helpers/wait-for.js';

/** The inference id of a reply the echo PAL makes to `text` in this room. */
async function replyTo(client: RoomClient, text: string): Promise<string> {
  client.say('conversation.respond', { text });
  const started = await client.waitForEvent(
    'conversation.utterance',
    (m) => m.properties.role === 'replica' && m.properties.speech === text,
    10_000,
  );
  assert.equal(typeof started.inference_id, 'string');
  return started.inference_id as string;
}

describe('turn latency reports', () => {
  let t: TestService;
  let receiver: CallbackReceiver;
  let palId: string;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000' });
    receiver = await startCallbackReceiver();
    palId = await insertPal(t, { pipelineMode: 'echo', faceId: await insertFace(t) });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const metric = async (line: string) => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    return found ? Number(found.split(' ').pop()) : 0;
  };
  const stored = (id: string) =>
    t.service.deps.db.selectFrom('conversation_turn_latencies').selectAll().where('conversation_id', '=', id).execute();
  const valid = { type: 'turn-latency', inference_id: 'inf-1', input: 'text', turn_ended_at: Date.now() };

  it('refuses bad figures with bad_frame and stores nothing of them', async () => {
    const room = await insertConversation(t, { palId });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const heardBefore = await metric('palkit_turn_heard_seconds_count{input="text"}');
    const bad: unknown[] = [
      { ...valid, heard_ms: -1 },
      { ...valid, heard_ms: 60_001 },
      { ...valid, heard_ms: '500' },
      { ...valid, mouth_ms: 1e308 },
      { ...valid, lip_sync_ms: -3 },
      { ...valid, lip_sync_ms: 10_001 },
      { ...valid, input: 'telepathy' },
      { ...valid, inference_id: '' },
      { ...valid, inference_id: 'x'.repeat(129) },
      { ...valid, turn_ended_at: -1 },
      { ...valid, turn_ended_at: undefined },
      { ...valid, inference_id: undefined },
      { ...valid, heard_ms: null },
    ];
    for (const frame of bad) client.send(frame);
    await client.until(
      () => (client.frames.filter((f) => f.type === 'error' && f.code === 'bad_frame').length === bad.length ? true : undefined),
      5000,
      'every bad frame refused',
    );
    assert.deepEqual(await stored(room.conversationId), []);
    assert.equal(await metric('palkit_turn_heard_seconds_count{input="text"}'), heardBefore);
    client.close();
  });

  it('stores reports, counts them in /metrics and sums them up in transcription_ready; absent figures stay absent', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const before = {
      text: await metric('palkit_turn_heard_seconds_count{input="text"}'),
      speech: await metric('palkit_turn_heard_seconds_count{input="speech"}'),
      mouth: await metric('palkit_turn_mouth_seconds_count{input="text"}'),
      lip: await metric('palkit_lip_sync_offset_seconds_count'),
      under1s: await metric('palkit_turn_heard_seconds_bucket{le="1",input="text"}'),
    };
    const [a, b, c] = [await replyTo(client, 'one'), await replyTo(client, 'two'), await replyTo(client, 'three')];
    client.send({ ...valid, inference_id: a, heard_ms: 400, mouth_ms: 420, lip_sync_ms: 30 });
    client.send({ ...valid, inference_id: b, heard_ms: 900 });
    client.send({ ...valid, inference_id: c, input: 'speech', heard_ms: 1400, mouth_ms: 1410, lip_sync_ms: 20 });
    await waitFor(async () => (await stored(room.conversationId)).length >= 3, { timeout: 5000, interval: 50 });
    assert.equal(await metric('palkit_turn_heard_seconds_count{input="text"}'), before.text + 2);
    assert.equal(await metric('palkit_turn_heard_seconds_count{input="speech"}'), before.speech + 1);
    assert.equal(
      await metric('palkit_turn_mouth_seconds_count{input="text"}'),
      before.mouth + 1,
      'a report without mouth_ms is not counted as 0',
    );
    assert.equal(await metric('palkit_lip_sync_offset_seconds_count'), before.lip + 2);
    assert.equal(await metric('palkit_turn_heard_seconds_bucket{le="1",input="text"}'), before.under1s + 2);

    const verbose = await t.api('GET', `/v2/conversations/${room.conversationId}?verbose=true`);
    assert.equal(verbose.status, 200);
    const turns = verbose.body.turn_latencies as Array<Record<string, unknown>>;
    assert.deepEqual(
      turns.map((r) => r.inference_id),
      [a, b, c],
    );
    assert.deepEqual(turns[1], { inference_id: b, input: 'text', turn_ended_at: valid.turn_ended_at, heard_ms: 900 });

    client.send({ type: 'leave', end: true });
    await receiver.waitFor(
      () => receiver.bodies.some((b) => b.conversation_id === room.conversationId && b.event_type === 'application.transcription_ready'),
      10_000,
    );
    const ready = receiver.bodies.find(
      (b) => b.conversation_id === room.conversationId && b.event_type === 'application.transcription_ready',
    )!;
    assert.ok(parseConversationCallback(ready), 'the callback matches its schema');
    assert.deepEqual(ready.properties.turn_latency, {
      turns: 3,
      heard_ms: { count: 3, p50: 900, p95: 1400 },
      mouth_ms: { count: 2, p50: 420, p95: 1410 },
      lip_sync_ms: { count: 2, p50: 20, p95: 30 },
    });
  });

  it('counts a report only for a reply the PAL made in that room, once, with a wait it could have had', async () => {
    const other = await insertConversation(t, { palId });
    const elsewhere = await RoomClient.join(other.conversationUrl, other.token, 'Eve');
    const otherReply = await replyTo(elsewhere, 'elsewhere');
    const room = await insertConversation(t, { palId });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const heardBefore = await metric('palkit_turn_heard_seconds_count{input="text"}');
    const first = await replyTo(client, 'first');
    // Forged: replies that never happened here (ten: the frame budget allows no flood), another room's reply, a wait longer than the reply has existed.
    for (let i = 0; i < 10; i++) client.send({ ...valid, inference_id: `forged-${i}`, heard_ms: 59_000 });
    client.send({ ...valid, inference_id: otherReply, heard_ms: 500 });
    client.send({ ...valid, inference_id: first, heard_ms: 60_000 });
    const second = await replyTo(client, 'second');
    client.send({ ...valid, inference_id: second, heard_ms: 700 });
    client.send({ ...valid, inference_id: second, heard_ms: 710 }); // a duplicate
    const third = await replyTo(client, 'third');
    client.send({ ...valid, inference_id: third, heard_ms: 800 });
    await waitFor(async () => (await stored(room.conversationId)).length >= 2, { timeout: 5000, interval: 50 });
    // The frames are handled in order: once the last one is stored, the others were decided.
    assert.deepEqual(
      (await stored(room.conversationId)).map((r) => [r.inference_id, Number(r.heard_ms)]),
      [
        [second, 700],
        [third, 800],
      ],
    );
    assert.equal(await metric('palkit_turn_heard_seconds_count{input="text"}'), heardBefore + 2);
    assert.deepEqual(await stored(other.conversationId), []);
    client.close();
    elsewhere.close();
  });

  it('leaves turn_latency out of transcription_ready when no page reported', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    client.send({ type: 'leave', end: true });
    await receiver.waitFor(
      () => receiver.bodies.some((b) => b.conversation_id === room.conversationId && b.event_type === 'application.transcription_ready'),
      10_000,
    );
    const ready = receiver.bodies.find(
      (b) => b.conversation_id === room.conversationId && b.event_type === 'application.transcription_ready',
    )!;
    assert.equal('turn_latency' in ready.properties, false);
  });

  it('survives fuzzed reports: the room stays up and keeps only well-formed ones', async () => {
    const room = await insertConversation(t, { palId });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values = [0, -0, 1, -1, 59_999.5, 60_000, 60_001, 1e308, -1e308, '1', null, true, [], {}, 'text', 'speech', '', 'a'.repeat(200)];
    const pick = () => values[Math.floor(random() * values.length)];
    for (let i = 0; i < 25; i++) {
      client.send({
        type: 'turn-latency',
        inference_id: pick(),
        input: pick(),
        turn_ended_at: pick(),
        heard_ms: pick(),
        mouth_ms: pick(),
        lip_sync_ms: pick(),
      });
    }
    client.say('conversation.respond', { text: 'still there?' });
    await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'still there?',
      10_000,
    );
    for (const row of await stored(room.conversationId)) {
      for (const v of [row.heard_ms, row.mouth_ms]) assert.ok(v === null || (v >= 0 && v <= 60_000));
      assert.ok(row.input === 'text' || row.input === 'speech');
    }
  });
});
