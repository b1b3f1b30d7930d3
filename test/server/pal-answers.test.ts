// Without a language model the PAL answers from its knowledge with the sentence or two that answer the
// question, phrased as a reply: never a document heading or an excerpt dump; in the PAL's language.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { answerFromKnowledge, type Recall } from '../../src/server/resources/conversations/live/pal-knowledge.js';
import { phrasesFor } from '../../src/server/resources/conversations/live/pal-phrases.js';
import { insertConversation, insertPal, RoomClient } from '../helpers/live-fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';

const FAQ = `Home · Shop · Contact
Northwind Bikes — frequently asked questions
Delivery
We deliver across Europe in 3 to 5 working days. Delivery is free for orders over 500 euros; otherwise it costs 29 euros. Bikes arrive 95% assembled with the tools you need.
Sizes
The Trail 29 comes in sizes S, M, L and XL. Riders from 160 to 170 cm usually ride S, 170 to 180 cm M, 180 to 190 cm L, and taller riders XL.
Returns and warranty
You can return an unridden bike within 30 days for a full refund. Frames carry a lifetime warranty; components carry two years.`;

const GERMAN = `Lieferung
Wir liefern in ganz Deutschland innerhalb von 2 bis 4 Werktagen. Die Lieferung ist ab 500 Euro kostenlos.
Rückgabe
Ungefahrene Räder können Sie innerhalb von 30 Tagen zurückgeben.`;

const known = (content: string): Recall => ({ passages: [{ document_name: 'Northwind Bikes FAQ', content, score: 1 }], memories: [] });
const en = phrasesFor('en');

describe('answers from knowledge', () => {
  it('answers with the sentence that answers the question, not a heading or an excerpt', () => {
    const delivery = answerFromKnowledge('How long does delivery take?', known(FAQ), null, en);
    assert.match(delivery, /^We deliver across Europe in 3 to 5 working days\./);
    assert.doesNotMatch(delivery, /From |frequently asked|Home ·/);
    assert.ok(delivery.length <= 300 && (delivery.match(/[.!?](\s|$)/g) ?? []).length <= 2, delivery);
    assert.equal(answerFromKnowledge('How much does delivery cost?', known(FAQ), null, en), 'Delivery is free for orders over 500 euros; otherwise it costs 29 euros.');
    assert.match(answerFromKnowledge('Which size do I need if I am 185 cm tall?', known(FAQ), null, en), /180 to 190 cm L/);
    assert.match(answerFromKnowledge('Can I return my bike?', known(FAQ), null, en), /^You can return an unridden bike within 30 days/);
  });

  it('says honestly when it does not know, naming what it can help with; greets and thanks without a search', () => {
    assert.equal(answerFromKnowledge('Do you sell surfboards?', known(FAQ), null, en), "I'm not sure about that one. I can help with questions about Northwind Bikes FAQ.");
    assert.equal(answerFromKnowledge('Hello!', known(FAQ), null, en), en.hello);
    assert.equal(answerFromKnowledge('thank you', known(FAQ), null, en), en.thanks);
  });

  it('answers in German from German knowledge, and says so in German when it does not know', () => {
    const de = phrasesFor('de');
    assert.equal(answerFromKnowledge('Wie lange dauert die Lieferung?', known(GERMAN), null, de), 'Wir liefern in ganz Deutschland innerhalb von 2 bis 4 Werktagen. Die Lieferung ist ab 500 Euro kostenlos.');
    assert.match(answerFromKnowledge('Verkaufen Sie Surfbretter?', known(GERMAN), null, de), /^Da bin ich mir nicht sicher\./);
    assert.equal(answerFromKnowledge('Danke!', known(GERMAN), null, de), de.thanks);
  });

  it('answers from the conversational context too', () => {
    const context = 'The visitor is looking at the Trail 29. The shop opens at 9 am and closes at 6 pm.';
    assert.equal(answerFromKnowledge('When does the shop open?', { passages: [], memories: [] }, context, en), 'The shop opens at 9 am and closes at 6 pm.');
  });
});

describe('the PAL speaks its languages', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ PALKIT_PAL_WORDS_PER_MINUTE: '400', PALKIT_ROOM_POLL_MS: '200' });
  });
  after(() => t.close());

  const greeting = async (palLanguages: string[], properties: Record<string, unknown> = {}) => {
    const room = await insertConversation(t, { palId: await insertPal(t, { name: 'Mia', definition: { languages: palLanguages } }), properties });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    const said = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica', 10_000);
    return { client, said: said.properties.speech as string };
  };

  it('a German PAL greets and answers in German', async () => {
    const { client, said } = await greeting(['de']);
    assert.equal(said, 'Hallo, ich bin Mia. Wie kann ich Ihnen helfen?');
    client.say('conversation.respond', { text: 'Verkaufen Sie Surfbretter?' });
    const answer = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica' && m.properties.speech !== said, 10_000);
    assert.equal(answer.properties.speech, 'Da bin ich mir nicht sicher. Können Sie mir etwas mehr dazu sagen?');
    client.close();
  });

  it('a conversation\'s languages replace the PAL\'s (they are not merged)', async () => {
    const { client, said } = await greeting(['de'], { languages: ['fr'] });
    assert.equal(said, 'Bonjour, je suis Mia. Comment puis-je vous aider ?');
    client.close();
  });
});
