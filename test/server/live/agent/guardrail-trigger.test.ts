// Guardrails in a live conversation: the local PAL checks each visitor turn against its verbal
// guardrails, refuses what a rule forbids, and calls the rule's callback_url with the spec's body.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ruleTopics } from '../../../../src/server/live/agent/guardrails.js';
import {
  insertConversation,
  insertFace,
  insertPal,
  RoomClient,
  startCallbackReceiver,
  type CallbackReceiver,
} from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

describe('guardrails in a conversation', () => {
  let t: TestService;
  let receiver: CallbackReceiver;
  let faceId: string;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000' });
    receiver = await startCallbackReceiver();
    faceId = await insertFace(t);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('reads the topic of a rule from its wording', () => {
    assert.deepEqual(ruleTopics('Never discuss pricing or discounts.'), ['pric', 'discount']);
    assert.deepEqual(ruleTopics('Do not talk about competitors'), ['competitor']);
    assert.deepEqual(ruleTopics('Be friendly.'), []);
  });

  it("refuses a turn that touches a rule and calls the rule's callback, from an individual guardrail and from a set", async () => {
    const pricing = await t.api('POST', '/v2/guardrails', {
      guardrail_name: 'no pricing',
      guardrail_prompt: 'Never discuss pricing or discounts.',
      modality: 'verbal',
      callback_url: receiver.url,
    });
    const set = await t.api('POST', '/v2/guardrails', {
      name: 'house',
      data: [
        { guardrail_name: 'no rivals', guardrail_prompt: 'Do not talk about competitors.', modality: 'verbal', callback_url: receiver.url },
      ],
    });
    const rivals = (await t.api('GET', `/v2/guardrails/${set.body.guardrails_id}`)).body.data[0];
    const palId = await insertPal(t, { faceId, definition: { guardrail_ids: [pricing.body.uuid], guardrails_id: set.body.guardrails_id } });
    const room = await insertConversation(t, { palId, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === 'Hi.');

    client.say('conversation.respond', { text: 'What discounts do you have on the pricing?' });
    await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && /can't help/.test(String(m.properties.speech)),
    );
    await receiver.waitFor((b) => b.some((x) => x.properties?.guardrail_uuid === pricing.body.uuid));
    assert.deepEqual(
      receiver.bodies.find((x) => x.properties?.guardrail_uuid === pricing.body.uuid),
      {
        conversation_id: room.conversationId,
        properties: { guardrail: 'no pricing', guardrail_uuid: pricing.body.uuid },
      },
    );

    client.say('conversation.respond', { text: 'Are your competitors cheaper?' });
    await receiver.waitFor((b) => b.some((x) => x.properties?.guardrail_uuid === rivals.uuid));

    const before = receiver.bodies.length;
    client.say('conversation.respond', { text: 'What colours does the bike come in?' });
    await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && !/can't help|Hi\./.test(String(m.properties.speech)),
    );
    assert.equal(receiver.bodies.length, before);
    client.close();
  });
});
