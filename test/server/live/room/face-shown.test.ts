// Issue 32: the PAL's first line waits until the visitor sees its face. A page that joined with
// `face_ready` sends `face-ready` once the face's first frame is drawn; the room holds the greeting until
// then, at most FACE_WAIT_MS on the service's clock (moved by the test), and no longer than today for a PAL
// without a drawn face or a page that never said it would tell; a sound the visitor makes meanwhile does not
// drop it. The start's answer names a trained face's rig.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FACE_WAIT_MS, FaceShown, faceToWaitFor } from '../../../../src/server/live/room/face-shown.js';
import { hubFor } from '../../../../src/server/live/hub/hub.js';
import { loadLiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertFace, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { ManualClock } from '../../../helpers/clock.js';
import { vadReady } from '../../../../src/server/live/ears/vad.js';
import { MICROPHONE_FRAME, sendMicrophoneFrame, speech } from '../../../helpers/voice.js';

describe('the face shown: the wait itself', () => {
  it('waits until face-ready, then lets go at once and for good', async () => {
    const clock = new ManualClock(0);
    const gate = new FaceShown(clock, true);
    let by: string | undefined;
    void gate.shown.then((b) => (by = b));
    await clock.advance(FACE_WAIT_MS - 1);
    assert.equal(gate.waiting, true);
    assert.equal(by, undefined);
    gate.open('face-ready');
    await clock.drain();
    assert.equal(by, 'face-ready');
    assert.equal(clock.timers, 0, 'the bound is cleared');
    gate.open('bound');
    await clock.drain();
    assert.equal(by, 'face-ready');
  });

  it('lets go at exactly the bound without face-ready, not 1 ms before', async () => {
    const clock = new ManualClock(0);
    const gate = new FaceShown(clock, true);
    let by: string | undefined;
    void gate.shown.then((b) => (by = b));
    await clock.advance(FACE_WAIT_MS - 1);
    assert.equal(by, undefined, `still waiting at ${FACE_WAIT_MS - 1} ms`);
    await clock.advance(1);
    assert.equal(by, 'bound');
    assert.equal(gate.waiting, false);
  });

  it('does not wait when there is no face to wait for', async () => {
    const clock = new ManualClock(0);
    const gate = new FaceShown(clock, false);
    assert.equal(gate.waiting, false);
    assert.equal(await gate.shown, 'none');
    assert.equal(clock.timers, 0);
  });

  it('waits only for a drawn face, on a page that reports it, with the visitor listening', () => {
    const rig = { face_rig_url: 'https://palkit.example/v2/faces/r1/rig/rig.json' };
    const ada = { face_model: 'palkit:ada' };
    assert.equal(faceToWaitFor(rig, { faceReady: true }), true);
    assert.equal(faceToWaitFor(ada, { faceReady: true }), true);
    assert.equal(faceToWaitFor({ face_model: null }, { faceReady: true }), false, 'a thumbnail or no face: nothing is drawn');
    assert.equal(faceToWaitFor(rig, {}), false, 'an older page, the Daily path');
    assert.equal(faceToWaitFor(rig, { faceReady: true, textMode: true }), false, 'text mode: the greeting is written');
  });
});

describe("the face shown: a room on the service's clock", () => {
  let t: TestService;
  const clock = new ManualClock();
  const GREETING = 'Hello, good to see you.';
  let rigPal: string;
  let stillPal: string;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000' }, { clock });
    rigPal = await insertPal(t, {
      pipelineMode: 'echo',
      faceId: await insertFace(t, { imageUrl: 'https://cdn.example/face.jpg', rigUrl: 'https://cdn.example/rig/rig.json' }),
    });
    stillPal = await insertPal(t, { pipelineMode: 'echo', faceId: await insertFace(t, { imageUrl: 'https://cdn.example/face.jpg' }) });
  });
  after(() => t.close());

  /** A visitor joined (saying it reports the face shown, unless told), and the room it joined. */
  async function visit(palId: string, faceReady = true) {
    const handle = await insertConversation(t, { palId, customGreeting: GREETING });
    const client = await RoomClient.open(handle.conversationUrl);
    client.send({ type: 'join', meeting_token: handle.token, user_name: 'Dana', ...(faceReady ? { face_ready: true } : {}) });
    await client.waitFor((f) => f.type === 'joined');
    const room = hubFor(t.service.deps).open((await loadLiveConversation(t.service.deps.db, handle.conversationId))!);
    return { client, room };
  }
  const greeted = (client: RoomClient) => client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica');

  it('holds the greeting until the page says the face is shown, then says it whole', async () => {
    const { client, room } = await visit(rigPal);
    await clock.advance(FACE_WAIT_MS - 1);
    assert.equal(room.waitingForFace, true, 'the greeting waits for the face');
    assert.deepEqual(client.events('conversation.replica.started_speaking'), []);
    client.send({ type: 'face-ready' });
    assert.equal((await greeted(client)).properties.speech, GREETING);
    assert.equal(room.waitingForFace, false);
    client.close();
  });

  it('a sound from the visitor while the greeting waits does not drop it: the greeting comes whole once the face shows', async () => {
    const { client, room } = await visit(rigPal);
    // A word (or a cough, a beep) heard as speech before the PAL has said anything: under the second of
    // audio a visitor may send at once. The room hears a socket's frames in order, as they come, so it has
    // heard them all before the face-ready sent after them (and before today's fix, dropped the greeting).
    await vadReady();
    const word = speech('Hello?'); // 0.75 s
    for (let at = 0; at < word.length; at += MICROPHONE_FRAME) sendMicrophoneFrame(client, word.subarray(at, at + MICROPHONE_FRAME));
    assert.equal(room.waitingForFace, true);
    client.send({ type: 'face-ready' });
    assert.equal((await greeted(client)).properties.speech, GREETING);
    client.close();
  });

  it('says the greeting at exactly the bound when the page never says so, not 1 ms before', async () => {
    const { client, room } = await visit(rigPal);
    await clock.advance(FACE_WAIT_MS - 1);
    assert.equal(room.waitingForFace, true);
    await clock.advance(1);
    assert.equal(room.waitingForFace, false);
    assert.equal((await greeted(client)).properties.speech, GREETING, 'the greeting whole, nothing lost');
    client.close();
  });

  it('does not hold the greeting of a PAL without a drawn face, nor for a page that never said it would tell', async () => {
    for (const [palId, faceReady] of [
      [stillPal, true],
      [rigPal, false],
    ] as const) {
      const { client, room } = await visit(palId, faceReady);
      assert.equal(room.waitingForFace, false);
      // The clock never moves: the greeting comes as it did before.
      assert.equal((await greeted(client)).properties.speech, GREETING);
      client.close();
    }
  });

  it("the start's answer names a trained face's rig, so the page fetches it while it joins; a still face's has none", async () => {
    const rig = await t.api('POST', '/v2/conversations', { pal_id: rigPal });
    assert.equal(rig.status, 200, JSON.stringify(rig.body));
    assert.equal((rig.body as { face_rig_url?: string }).face_rig_url, 'https://cdn.example/rig/rig.json');
    const still = await t.api('POST', '/v2/conversations', { pal_id: stillPal });
    assert.equal(still.status, 200);
    assert.equal('face_rig_url' in (still.body as object), false);
  });

  it('a room that ends while the greeting waits ends without it', async () => {
    const { client, room } = await visit(rigPal);
    await room.shutdown('end_conversation_endpoint_hit');
    assert.equal(room.waitingForFace, false);
    assert.deepEqual(client.events('conversation.replica.started_speaking'), []);
    client.close();
  });
});
