// Local rooms: admission by meeting token only, presence, the app-message relay, the PAL's tile, the room page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RoomCloseCode } from '../../../../src/protocol/room.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertFace, insertPal, RoomClient, token } from '../../../helpers/live-fixtures.js';

describe('local rooms', () => {
  let t: TestService;
  let palId: string;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000', PALKIT_ROOM_POLL_MS: '200' });
    const faceId = await insertFace(t, { videoUrl: 'https://cdn.example/face.mp4', imageUrl: 'https://cdn.example/face.jpg' });
    palId = await insertPal(t, { pipelineMode: 'echo', faceId, name: 'Echo' });
  });
  after(() => t.close());

  async function refusedWith(conversationUrl: string, frame: unknown): Promise<{ code: number; error: string | undefined }> {
    const client = await RoomClient.open(conversationUrl);
    client.send(frame);
    const { code } = await client.closed;
    const error = client.frames.find((f) => f.type === 'error');
    return { code, error: error?.type === 'error' ? error.code : undefined };
  }

  it('refuses forged, expired and other-room tokens, and frames before join', async () => {
    const room = await insertConversation(t, { palId });
    const other = await insertConversation(t, { palId });
    const forged = room.token.replace(/.$/, (ch) => (ch === 'a' ? 'b' : 'a'));
    assert.deepEqual(await refusedWith(room.conversationUrl, { type: 'join', meeting_token: forged }), {
      code: RoomCloseCode.invalidToken,
      error: 'invalid_token',
    });
    const expired = token(t, room.conversationId, { expiresAt: new Date(Date.now() - 1000) });
    assert.equal((await refusedWith(room.conversationUrl, { type: 'join', meeting_token: expired })).code, RoomCloseCode.invalidToken);
    assert.equal((await refusedWith(room.conversationUrl, { type: 'join', meeting_token: other.token })).code, RoomCloseCode.invalidToken);
    assert.equal((await refusedWith(room.conversationUrl, { type: 'join', meeting_token: 'garbage' })).code, RoomCloseCode.invalidToken);
    assert.equal((await refusedWith(room.conversationUrl, { type: 'app-message', data: {} })).code, RoomCloseCode.badFrame);
    assert.equal((await refusedWith(room.conversationUrl, 'not json')).code, RoomCloseCode.badFrame);
  });

  it("names a trained face's rig on the PAL's tile", async () => {
    const faceId = await insertFace(t, { imageUrl: 'https://cdn.example/face.jpg', rigUrl: `${t.url}/media/mdrig.json` });
    const pal = await insertPal(t, { pipelineMode: 'echo', faceId, name: 'Rigged' });
    const room = await insertConversation(t, { palId: pal });
    const visitor = await RoomClient.join(room.conversationUrl, room.token, 'Alice');
    const palJoined = await visitor.waitFor((f) => f.type === 'participant-joined' && f.participant.role === 'pal');
    assert.ok(palJoined.type === 'participant-joined');
    // This service's file, with a token bound to the conversation (media/access.ts).
    assert.match(palJoined.participant.face_rig_url ?? '', new RegExp(`^${t.url}/media/t/fm\\.c[a-z0-9]+\\.[^/]+/mdrig\\.json$`));
    visitor.close();
  });

  it('refuses unknown and ended conversations even with a valid signature', async () => {
    const url = `${t.url}/rooms/cnosuchroom`;
    assert.equal((await refusedWith(url, { type: 'join', meeting_token: token(t, 'cnosuchroom') })).code, RoomCloseCode.notFound);
    const ended = await insertConversation(t, { palId });
    await t.service.deps.db
      .updateTable('conversations')
      .set({ status: 'ended', live_finalized_at: new Date() })
      .where('conversation_id', '=', ended.conversationId)
      .execute();
    assert.equal((await refusedWith(ended.conversationUrl, { type: 'join', meeting_token: ended.token })).code, RoomCloseCode.ended);
  });

  it('shows presence to every participant and relays app-messages like Daily', async () => {
    const room = await insertConversation(t, { palId });
    const alice = await RoomClient.join(room.conversationUrl, room.token, 'Alice');
    const palJoined = await alice.waitFor((f) => f.type === 'participant-joined' && f.participant.role === 'pal');
    assert.ok(palJoined.type === 'participant-joined');
    assert.equal(palJoined.participant.video_url, 'https://cdn.example/face.mp4');
    assert.equal(palJoined.participant.image_url, 'https://cdn.example/face.jpg');
    assert.equal(palJoined.participant.user_name, 'Echo');
    assert.ok(!('face_rig_url' in palJoined.participant), 'a face without a rig has no rig URL');

    // Bob is another visitor: his own token (one token admits one live connection).
    const bob = await RoomClient.join(
      room.conversationUrl,
      token(t, room.conversationId, { expiresAt: new Date(Date.now() + 7_200_000) }),
      'Bob',
    );
    const bobJoined = bob.frames.find((f) => f.type === 'joined');
    assert.ok(bobJoined?.type === 'joined');
    assert.deepEqual(bobJoined.participants.map((p) => p.role).sort(), ['pal', 'visitor', 'visitor']);
    assert.ok(bobJoined.participants.some((p) => p.user_name === 'Alice'));
    const seen = await alice.waitFor((f) => f.type === 'participant-joined' && f.participant.user_name === 'Bob');
    assert.ok(seen.type === 'participant-joined' && seen.participant.participant_id === bob.participantId);

    alice.send({ type: 'app-message', data: { hello: 'everyone' } });
    const relayed = await bob.waitFor((f) => f.type === 'app-message' && (f.data as { hello?: string }).hello === 'everyone');
    assert.ok(relayed.type === 'app-message' && relayed.from === alice.participantId);
    bob.send({ type: 'app-message', data: { direct: true }, to: alice.participantId });
    await alice.waitFor((f) => f.type === 'app-message' && (f.data as { direct?: boolean }).direct === true);
    // The sender does not get its own broadcast back.
    assert.equal(alice.frames.filter((f) => f.type === 'app-message' && (f.data as { hello?: string }).hello).length, 0);

    bob.send({ type: 'leave' });
    const left = await alice.waitFor((f) => f.type === 'participant-left');
    assert.ok(left.type === 'participant-left' && left.participant_id === bob.participantId);
    assert.equal((await bob.closed).code, 1000);
    alice.send({ type: 'app-message', data: 'x'.repeat(10) });
    alice.send('{not json');
    await alice.waitFor((f) => f.type === 'error' && f.code === 'bad_frame');
    alice.close();
  });

  it('admits one live connection per meeting token: a second join with it replaces the first', async () => {
    const room = await insertConversation(t, { palId });
    const first = await RoomClient.join(room.conversationUrl, room.token, 'Tab one');
    const firstId = first.frames.find((f) => f.type === 'joined')!;
    const second = await RoomClient.join(room.conversationUrl, room.token, 'Tab two');
    const { code } = await first.closed;
    assert.equal(code, RoomCloseCode.replaced);
    const joined = second.frames.find((f) => f.type === 'joined');
    assert.ok(joined?.type === 'joined' && firstId.type === 'joined');
    assert.equal(joined.participants.filter((p) => p.role === 'visitor').length, 1, 'only the newest connection is in the room');
    assert.ok(!joined.participants.some((p) => p.participant_id === firstId.participant_id));
    second.close();
  });

  it('keeps frames sent right behind the join', async () => {
    const room = await insertConversation(t, { palId, customGreeting: 'Hi.' });
    const client = await RoomClient.open(room.conversationUrl);
    client.send({ type: 'join', meeting_token: room.token });
    client.say('conversation.respond', { text: 'straight away' });
    const reply = await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'straight away',
    );
    assert.ok(reply);
    client.close();
  });

  it('serves the room page with pal-conversation, reading the token from the fragment only', async () => {
    const room = await insertConversation(t, { palId });
    const response = await fetch(room.conversationUrl);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    const html = await response.text();
    assert.match(html, /<pal-conversation[^>]+conversation-url="http:\/\/localhost:\d+\/rooms\/c[a-z0-9]+"/);
    assert.match(html, /src="\/palkit\.js"/);
    assert.match(html, /location\.hash/);
    assert.doesNotMatch(html, /location\.search/);
    assert.equal((await fetch(`${t.url}/rooms/cmissing`)).status, 404);
  });
});
