// A visitor who joins again (a reload mid-call) gets the conversation so far with the `joined` frame:
// what the room recorded, a reply cut off kept with what was heard and marked interrupted, at most
// ROOM_HISTORY_LIMIT turns (the latest).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ROOM_HISTORY_LIMIT } from '../../../../src/protocol/room.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';

describe('the room sends the conversation so far on joining', () => {
  let t: TestService;
  let echoPal: string;
  before(async () => {
    // 600 words a minute: 100 ms a word, slow enough to interrupt, quick enough for tests.
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '600' });
    echoPal = await insertPal(t, { pipelineMode: 'echo' });
  });
  after(async () => {
    await t.close();
  });

  const replica = (speech: string) => (m: { properties: Record<string, unknown> }) =>
    m.properties.role === 'replica' && m.properties.speech === speech;
  const joinedFrame = (client: RoomClient) => {
    const frame = client.frames.find((f) => f.type === 'joined');
    assert.ok(frame?.type === 'joined');
    return frame;
  };

  it('a reload mid-call rejoins with every turn, the cut reply marked interrupted', async () => {
    const room = await insertConversation(t, { palId: echoPal, customGreeting: 'Hi.' });
    const first = await RoomClient.join(room.conversationUrl, room.token);
    assert.equal(joinedFrame(first).transcript, undefined, 'nothing was said before the first join');
    await first.waitForEvent('conversation.utterance', replica('Hi.'));
    first.say('conversation.respond', { text: 'Opening hours?' });
    await first.waitForEvent('conversation.utterance', replica('Opening hours?'));
    const long = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen';
    first.say('conversation.echo', { text: long });
    await first.waitForEvent('conversation.utterance.streaming', (m) => m.properties.speech === 'one two');
    first.say('conversation.interrupt');
    const cut = await first.waitForEvent('conversation.utterance.streaming', (m) => m.properties.is_interrupted === true);

    const again = await RoomClient.join(room.conversationUrl, room.token);
    const history = joinedFrame(again).transcript ?? [];
    assert.deepEqual(
      history.map((e) => [e.role, e.content, e.interrupted ?? false]),
      [
        ['assistant', 'Hi.', false],
        ['user', 'Opening hours?', false],
        ['assistant', 'Opening hours?', false],
        ['assistant', cut.properties.speech, true],
      ],
    );
    assert.ok(
      history.every((e) => typeof e.timestamp === 'number' && e.timestamp > 1e9),
      'epoch seconds',
    );
    assert.equal(history[3]!.inference_id, cut.inference_id);
    again.close();
    first.close();
  });

  it('sends only the latest turns of a long conversation, oldest first', async () => {
    const room = await insertConversation(t, { palId: echoPal, customGreeting: 'Hi.' });
    const base = Date.now() / 1000 - 3600;
    const rows = Array.from({ length: ROOM_HISTORY_LIMIT + 40 }, (_, i) => ({
      conversation_id: room.conversationId,
      role: 'user' as const,
      content: `turn ${i}`,
      started_at: base + i,
      seconds_from_start: i,
      duration: 0,
      inference_id: null,
      participant_name: null,
    }));
    await t.service.deps.db.insertInto('conversation_transcript_entries').values(rows).execute();
    const client = await RoomClient.join(room.conversationUrl, room.token);
    const history = joinedFrame(client).transcript ?? [];
    assert.equal(history.length, ROOM_HISTORY_LIMIT);
    assert.equal(history[0]!.content, 'turn 40');
    assert.equal(history.at(-1)!.content, `turn ${ROOM_HISTORY_LIMIT + 39}`);
    client.close();
  });
});
