// Perception in local rooms: the room asks the visitor's elements for camera frames when the PAL's
// perception layer names a model, keeps a few, and after the call a vision model (a fake speaking the
// OpenAI chat completions format with image parts) summarises them into application.perception_analysis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FRAME_INTERVAL_MS, MAX_FRAMES, storeFrame } from '../../../../src/server/live/perception/perception.js';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import {
  insertConversation,
  insertPal,
  RoomClient,
  startCallbackReceiver,
  token,
  type CallbackReceiver,
} from '../../../helpers/live-fixtures.js';
import { sampleFaceJpg } from '../../../helpers/media-gen.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';

describe('perception', () => {
  let t: TestService;
  let vision: FakeLlm;
  let receiver: CallbackReceiver;
  let perceiving: string;
  let blind: string;
  const jpeg = sampleFaceJpg();

  before(async () => {
    vision = await startFakeLlm();
    receiver = await startCallbackReceiver();
    t = await startListeningService({
      PALKIT_VISION_BASE_URL: vision.baseUrl,
      PALKIT_VISION_API_KEY: 'sk-vision',
      PALKIT_VISION_MODEL: 'gpt-4o',
    });
    perceiving = await insertPal(t, { definition: { layers: { perception: { perception_model: 'raven-0' } } } });
    blind = await insertPal(t, { definition: { layers: { perception: { perception_model: 'off' } } } });
  });
  after(async () => {
    await t.close();
    await Promise.all([vision.close(), receiver.close()]);
  });

  const post = (conversationId: string, body: Uint8Array | string, auth: string | null, type = 'image/jpeg') =>
    fetch(`${t.url}/v2/conversations/${conversationId}/frames`, {
      method: 'POST',
      headers: { 'content-type': type, ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
    });
  const analysisOf = (id: string) =>
    receiver.bodies.filter((b) => b.conversation_id === id && b.event_type === 'application.perception_analysis');

  it('asks the visitor for frames, keeps them, and sends the vision model’s summary once after the call', async () => {
    const room = await insertConversation(t, { palId: perceiving, callbackUrl: receiver.url, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const joined = client.frames.find((f) => f.type === 'joined') as { perception?: { frames_url: string; interval_ms: number } };
    assert.deepEqual(joined.perception, {
      frames_url: `${room.conversationUrl.replace('/rooms/', '/v2/conversations/')}/frames`,
      interval_ms: FRAME_INTERVAL_MS,
    });
    const r = await post(room.conversationId, jpeg, room.token);
    assert.equal(r.status, 200, await r.clone().text());
    assert.equal((await post(room.conversationId, jpeg, room.token)).status, 429, 'one frame per half interval');

    vision.completion = 'The visitor holds up a red bicycle helmet in a bright room.';
    client.send({ type: 'leave', end: true });
    await receiver.waitFor(() => analysisOf(room.conversationId).length > 0, 15_000);
    const analysis = analysisOf(room.conversationId)[0]!;
    assert.equal(analysis.message_type, 'application');
    assert.deepEqual(analysis.properties, { analysis: 'The visitor holds up a red bicycle helmet in a bright room.' });

    const request = vision.requests.find((q) => q.body.stream !== true)!;
    assert.equal(request.authorization, 'Bearer sk-vision');
    assert.equal(request.body.model, 'gpt-4o');
    const parts = request.body.messages[0].content;
    assert.equal(parts[0].type, 'text');
    assert.deepEqual(
      parts.slice(1).map((p: { image_url: { url: string } }) => p.image_url.url),
      [`data:image/jpeg;base64,${jpeg.toString('base64')}`],
    );
    await t.service.deps.jobs.drain(); // every delivery due has been sent: a second analysis would be among them
    assert.equal(analysisOf(room.conversationId).length, 1, 'sent once');
    const left = await t.service.deps.db
      .selectFrom('conversation_frames')
      .select('frame_id')
      .where('conversation_id', '=', room.conversationId)
      .execute();
    assert.equal(left.length, 0, 'the frames are deleted');
    const verbose = (await t.api('GET', `/v2/conversations/${room.conversationId}?verbose=true`)).body;
    assert.ok(verbose.events.some((e: { event_type: string }) => e.event_type === 'application.perception_analysis'));
  });

  it('refuses frames without the visitor’s token, of another type, or for a PAL that does not perceive, with the spec’s bodies', async () => {
    const room = await insertConversation(t, { palId: perceiving });
    const other = await insertConversation(t, { palId: perceiving });
    assert.equal((await post(room.conversationId, jpeg, null)).status, 401);
    assert.equal((await post(room.conversationId, jpeg, other.token)).status, 401, "another room's token");
    assert.equal(
      (await post(room.conversationId, jpeg, token(t, room.conversationId, { expiresAt: new Date(Date.now() - 1000) }))).status,
      401,
      'expired',
    );
    const png = await post(room.conversationId, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), room.token, 'image/png');
    assert.equal(png.status, 415);
    assert.match((await png.json()).error, /^unsupported_media_type/);
    assert.equal((await post(room.conversationId, 'not a jpeg', room.token)).status, 415);
    const huge = new Uint8Array(300 * 1024);
    huge.set([0xff, 0xd8, 0xff]);
    assert.equal((await post(room.conversationId, huge, room.token)).status, 413);
    const off = await insertConversation(t, { palId: blind });
    const refused = await post(off.conversationId, jpeg, off.token);
    assert.equal(refused.status, 409);
    assert.match((await refused.json()).error, /^perception_off/);
    const client = await RoomClient.join(off.conversationUrl, off.token, 'Dana');
    assert.equal((client.frames.find((f) => f.type === 'joined') as { perception?: unknown }).perception, undefined);
    client.close();
    assert.equal((await t.api('POST', `/v2/conversations/${room.conversationId}/end`)).status, 200);
    assert.equal((await post(room.conversationId, jpeg, room.token)).status, 410);
    const stored = await t.service.deps.db
      .selectFrom('conversation_frames')
      .select('frame_id')
      .where('conversation_id', 'in', [room.conversationId, off.conversationId])
      .execute();
    assert.equal(stored.length, 0, 'nothing refused was kept');
  });

  it(`keeps at most ${MAX_FRAMES} frames, evenly spread over the call`, async () => {
    const room = await insertConversation(t, { palId: perceiving });
    const start = Date.now();
    // 20 frames 5 s apart: the first and last stay, the kept ones never bunch up.
    for (let i = 0; i < 20; i++) await storeFrame(t.service.deps.db, room.conversationId, jpeg, new Date(start + i * 5000));
    const kept = await t.service.deps.db
      .selectFrom('conversation_frames')
      .select('captured_at')
      .where('conversation_id', '=', room.conversationId)
      .orderBy('captured_at')
      .execute();
    const at = kept.map((k) => (new Date(k.captured_at).getTime() - start) / 1000);
    assert.equal(at.length, MAX_FRAMES);
    assert.equal(at[0], 0);
    assert.equal(at.at(-1), 95);
    const gaps = at.slice(1).map((x, i) => x - at[i]!);
    assert.ok(Math.max(...gaps) <= 20, `gaps ${gaps.join(', ')}`);
  });

  it('a failing vision model is retried and, when it keeps failing, no analysis is sent and the frames are deleted', async () => {
    const room = await insertConversation(t, { palId: perceiving, callbackUrl: receiver.url });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    assert.equal((await post(room.conversationId, jpeg, room.token)).status, 200);
    vision.completion = 503;
    const before = vision.requests.length;
    client.send({ type: 'leave', end: true });
    await receiver.waitFor(
      (b) => b.some((x) => x.conversation_id === room.conversationId && x.event_type === 'application.transcription_ready'),
      15_000,
    );
    await waitFor(() => vision.requests.slice(before).filter((q) => q.body.stream !== true).length >= 3, {
      timeout: 20_000,
      interval: 200,
    });
    await t.service.deps.jobs.drain(10_000);
    assert.equal(vision.requests.slice(before).filter((q) => q.body.stream !== true).length, 3, 'three attempts');
    assert.equal(analysisOf(room.conversationId).length, 0);
    const left = await t.service.deps.db
      .selectFrom('conversation_frames')
      .select('frame_id')
      .where('conversation_id', '=', room.conversationId)
      .execute();
    assert.equal(left.length, 0);
    vision.completion = 'ok';
  });
});
