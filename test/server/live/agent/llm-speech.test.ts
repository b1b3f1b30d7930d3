// With a language model, the reply is spoken while the model is still writing: the first sentence's audio
// reaches the visitor before the model's last token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: speaking a reply as it streams';

describe('a streamed reply is spoken as it is written', { skip }, () => {
  let t: TestService;
  let llm: FakeLlm;
  before(async () => {
    llm = await startFakeLlm();
    t = await startListeningService({ PALKIT_LLM_BASE_URL: llm.baseUrl, PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8', PALKIT_ROOM_POLL_MS: '200' });
  });
  after(async () => {
    await t.close();
    await llm.close();
  });

  it('speaks the first sentence before the model has finished the reply', async () => {
    const room = await insertConversation(t, { palId: await insertPal(t), customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 5000);
    llm.reply = ['Sure, ', 'delivery takes three days. ', 'It is free ', 'above fifty euros, ', 'and returns are free too.'];
    llm.chunkDelayMs = 400;
    const sentAt = performance.now();
    client.say('conversation.respond', { text: 'How long is delivery?' });
    const audible = () => client.audio.find((f) => f.receivedAt > sentAt && f.samples.some((s) => Math.abs(s) > 1000));
    await client.until(() => audible(), 5000, 'the first audio');
    const firstAudio = audible()!.receivedAt - sentAt;
    // The model needs 5 × 400 ms for the whole reply; the first sentence is complete after the second chunk.
    assert.ok(firstAudio < 1500, `first audio after ${Math.round(firstAudio)} ms, before the model finished (2000 ms)`);
    const said = await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech !== 'Hi.',
      20_000,
    );
    assert.equal(said.properties.speech, 'Sure, delivery takes three days. It is free above fifty euros, and returns are free too.');
    client.close();
  });
});
