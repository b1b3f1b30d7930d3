// Nothing promised that cannot happen (issue 54): where the PAL cannot hear the visitor (no recogniser in
// the service, the page's browser has no speech recognition), its greeting invites typing, not speech;
// where either can hear, the owner's greeting is said as written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withoutSpeechOffer } from '../../../../src/server/live/agent/speech-offer.js';
import { answerLine } from '../../../../src/server/resources/pals/lines/language.js';
import { insertConversation, insertPal, RoomClient, token } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

describe('an invitation to speak, where the PAL cannot hear', () => {
  it('becomes an invitation to type, in the greeting’s language; other words stay', () => {
    assert.equal(
      withoutSpeechOffer('Ask me anything about our bikes, or say "help me choose".'),
      'Ask me anything about our bikes, or type "help me choose".',
    );
    assert.equal(withoutSpeechOffer('Say “hello” to start. Talk to me any time.'), 'Type “hello” to start. Write to me any time.');
    assert.equal(withoutSpeechOffer('Fragen Sie mich oder sagen Sie „Beratung“.', 'de'), 'Fragen Sie mich oder schreiben Sie „Beratung“.');
    assert.equal(withoutSpeechOffer('Posez une question ou dites « aidez-moi ».', 'fr'), 'Posez une question ou écrivez « aidez-moi ».');
    assert.equal(withoutSpeechOffer('「選んで」と言ってください。', 'ja'), '「選んで」と入力してください。');
    // Not an invitation: what people say, a sentence about saying.
    for (const line of ['What our riders say about us: they love it.', 'I can say that we deliver fast.'])
      assert.equal(withoutSpeechOffer(line), line);
  });
});

describe('the greeting, by what the page can hear', () => {
  let t: TestService;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '3000' });
  });
  after(() => t.close());

  const GREETING = 'Hello, I am Nova from Northwind Bikes. Ask me anything about our bikes, or say "help me choose".';
  async function greeting(page: { speech_recognition?: boolean }): Promise<string> {
    const palId = await insertPal(t, { definition: { custom_greeting: GREETING } });
    const room = await insertConversation(t, { palId, customGreeting: null });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana', page);
    const said = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica');
    client.close();
    return String(said.properties.speech);
  }

  it('a browser without speech recognition, and no recogniser here: the greeting asks to type', async () => {
    assert.equal(
      await greeting({ speech_recognition: false }),
      'Hello, I am Nova from Northwind Bikes. Ask me anything about our bikes, or type "help me choose".',
    );
  });

  it('recognition that stops working after the greeting invited speech: the PAL says once that it cannot hear', async () => {
    const palId = await insertPal(t, { definition: { custom_greeting: GREETING } });
    const room = await insertConversation(t, { palId, customGreeting: null });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana', { speech_recognition: true });
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === GREETING);
    client.send({ type: 'hearing', speech_recognition: false });
    client.send({ type: 'hearing', speech_recognition: false });
    const line = answerLine('en', 'cannotHear');
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === line);
    client.say('conversation.respond', { text: 'Thanks!' });
    await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && /welcome/i.test(String(m.properties.speech)),
    );
    const said = client.events('conversation.utterance').filter((m) => m.properties.speech === line);
    assert.equal(said.length, 1, 'said once');
    client.close();
  });

  it('a browser that recognises speech, or a page that does not say: the greeting as the owner wrote it', async () => {
    assert.equal(await greeting({ speech_recognition: true }), GREETING);
    assert.equal(await greeting({}), GREETING);
  });

  // palkit's runner joins a Daily conversation's PAL room as its bridge, saying what the Daily visitor's
  // own page told it of its recognition (client/runner/daily-pal-bridge.ts): the PAL greets by that.
  async function dailyGreeting(visitorPage: { speech_recognition: boolean }): Promise<string> {
    const palId = await insertPal(t, { definition: { custom_greeting: GREETING } });
    const room = await insertConversation(t, { palId, customGreeting: null });
    await t.service.deps.db
      .updateTable('conversations')
      .set({ provider: 'daily' })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    const bridgeToken = token(t, room.conversationId, { role: 'bridge' });
    const client = await RoomClient.join(room.conversationUrl, bridgeToken, 'Daily visitor', visitorPage);
    const said = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica');
    client.close();
    return String(said.properties.speech);
  }

  it("a Daily visitor, through palkit's runner: the greeting invites speech only where their page recognises it", async () => {
    assert.equal(await dailyGreeting({ speech_recognition: true }), GREETING);
    assert.equal(
      await dailyGreeting({ speech_recognition: false }),
      'Hello, I am Nova from Northwind Bikes. Ask me anything about our bikes, or type "help me choose".',
    );
  });
});
