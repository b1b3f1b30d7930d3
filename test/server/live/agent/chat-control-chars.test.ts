// A chat turn with NUL and other control characters is still answered: they are stripped where they
// carry no meaning, and the turn lands in the transcript (PostgreSQL text cannot hold NUL).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { loadTranscript } from '../../../../src/server/resources/conversations/transcript-store.js';
import { turnText } from '../../../../src/server/live/agent/turn-text.js';
import { waitFor } from '../../../helpers/wait-for.js';

describe('control characters in chat turns', () => {
  let t: TestService;
  let palId: string;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000', PALKIT_ROOM_POLL_MS: '200' });
    palId = await insertPal(t, { pipelineMode: 'echo', name: 'Echo' });
  });
  after(() => t.close());

  it('answers a turn with NUL, BEL, ESC and a lone surrogate, and records it', async () => {
    const room = await insertConversation(t, { palId });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    client.say('conversation.respond', { text: '\u0000Hel\u0000lo\u0007 the\u001bre\ud800!' });
    const reply = await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && String(m.properties.speech).startsWith('Hello'),
      10_000,
    );
    assert.equal(reply.properties.speech, 'Hello there\ufffd!');
    // The room still answers the next turn.
    client.say('conversation.respond', { text: 'Second\u0000 turn' });
    await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'Second turn',
      10_000,
    );
    let users: string[] = [];
    await waitFor(
      async () => {
        users = (await loadTranscript(t.service.deps.db, room.conversationId)).filter((e) => e.role === 'user').map((e) => e.content);
        return users.length >= 2;
      },
      { timeout: 5000, interval: 100, what: () => `two visitor turns stored (got ${JSON.stringify(users)})` },
    );
    assert.deepEqual(users, ['Hello there\ufffd!', 'Second turn']);
    client.close();
  });

  it('keeps tabs and line breaks and leaves no other control character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (raw) => {
        const text = turnText(raw, 4000);
        assert.doesNotMatch(text, /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/);
        assert.equal(text, text.trim());
        assert.ok(Buffer.from(text, 'utf8').toString('utf8') === text, 'encodes as UTF-8 unchanged');
      }),
    );
    assert.equal(turnText('a\tb\nc', 100), 'a\tb\nc');
  });
});
