// The local PAL's answers in a live room: from its knowledge documents as short spoken replies (not
// excerpts), in its languages (or the conversation's, which replace them), and from a language model
// told the reply language, streamed word by word and cleaned of markdown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServiceDeps } from '../../../../src/server/platform/context.js';
import type { LiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import { answerSource } from '../../../../src/server/live/agent/answer.js';
import { PalTools } from '../../../../src/server/live/agent/tools.js';
import { palLine } from '../../../../src/server/resources/pals/lines/language.js';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';

const FAQ = `# Northwind Bikes FAQ

Home > Help > FAQ

## Delivery

How long does delivery take?
Delivery usually takes 3 to 5 working days within Germany. Express delivery arrives the next working day if you order before 2 pm.

## Returns

Can I return my bike?
Yes. You can return any bike within 30 days of delivery. It must be unused and in its original packaging.`;

const FAQ_DE = `# Häufige Fragen

## Lieferung

Wie lange dauert die Lieferung?
Die Lieferung dauert in der Regel 3 bis 5 Werktage. Mit Expressversand kommt Ihr Rad schon am nächsten Werktag.

## Rückgabe

Kann ich mein Rad zurückgeben?
Ja, Sie können jedes Rad innerhalb von 30 Tagen zurückgeben.`;

describe('the local PAL’s answers and languages', () => {
  let t: TestService;
  let site: TestSite;
  let llm: FakeLlm;
  let faqId: string;
  let faqDeId: string;

  before(async () => {
    site = await startSite({
      '/faq.md': { body: FAQ, type: 'text/markdown' },
      '/haeufige-fragen.md': { body: FAQ_DE, type: 'text/markdown' },
    });
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '3000', PALKIT_ROOM_POLL_MS: '200' });
    llm = await startFakeLlm();
    const ingest = async (path: string, name: string) => {
      const created = await t.api('POST', '/v2/documents', { document_url: site.origin + path, document_name: name });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const doc = await waitForDocument(t.api, created.body.document_id);
      assert.equal(doc.status, 'ready', doc.error_message);
      return doc.document_id as string;
    };
    faqId = await ingest('/faq.md', 'Northwind Bikes FAQ');
    faqDeId = await ingest('/haeufige-fragen.md', 'Häufige Fragen');
  });
  after(async () => {
    await t.close();
    await site.close();
    await llm.close();
  });

  const replyTo = (turn: number) => (m: { turn_idx?: number; properties: Record<string, any> }) =>
    m.properties.role === 'replica' && m.turn_idx === turn;

  async function join(palId: string, properties: Record<string, unknown> = {}) {
    const room = await insertConversation(t, { palId, customGreeting: null, properties });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    // The greeting (after the disclosure, when there is one).
    const greeting = await client.waitForEvent(
      'conversation.utterance',
      (m) => replyTo(0)(m) && !client.events('conversation.disclosure').some((d) => d.properties.verbal_disclosure === m.properties.speech),
    );
    let turn = 0;
    return {
      client,
      greeting: String(greeting.properties.speech),
      async ask(text: string): Promise<string> {
        turn++;
        client.say('conversation.respond', { text });
        const answer = await client.waitForEvent('conversation.utterance', replyTo(turn));
        return String(answer.properties.speech);
      },
    };
  }

  it('answers a delivery question with the sentence that answers it, not an excerpt', async () => {
    const pal = await insertPal(t, { definition: { document_ids: [faqId] } });
    const { client, greeting, ask } = await join(pal);
    assert.equal(greeting, "Hi, I'm Ava. How can I help you today?");
    const answer = await ask('How long does delivery take?');
    assert.match(answer, /^(?:\w+(?: \w+)?\. )?Delivery usually takes 3 to 5 working days within Germany\./);
    assert.doesNotMatch(answer, /From |Northwind Bikes FAQ|Home|##|\?/);
    assert.ok(answer.length <= 300, answer);
    assert.ok((answer.match(/[.!?](?=\s|$)/g) ?? []).length <= 3, `a lead-in and at most two sentences: ${answer}`);

    assert.equal(await ask('Do you repair cars?'), palLine('en', 'unsureWithTopics', { topics: 'Northwind Bikes FAQ' }));
    assert.equal(await ask('Thank you!'), palLine('en', 'thanks'));
    client.close();
  });

  it('a German PAL greets, answers and refuses in German', async () => {
    const rule = await t.api('POST', '/v2/guardrails', {
      guardrail_name: 'keine Rabatte',
      guardrail_prompt: 'Never discuss Rabatte.',
      modality: 'verbal',
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    const pal = await insertPal(t, { definition: { languages: ['de'], document_ids: [faqDeId], guardrail_ids: [rule.body.uuid] } });
    const { client, greeting, ask } = await join(pal);
    assert.equal(greeting, 'Hallo, ich bin Ava. Wie kann ich Ihnen heute helfen?');
    const answer = await ask('Wie lange dauert die Lieferung?');
    assert.match(answer, /Die Lieferung dauert in der Regel 3 bis 5 Werktage\./);
    assert.doesNotMatch(answer, /Häufige Fragen|Lieferung\?/);
    assert.equal(await ask('Gibt es Rabatte?'), palLine('de', 'refusal'));
    assert.match(await ask('Verkaufen Sie auch Autos?'), /^Da bin ich mir leider nicht sicher\./);
    client.close();
  });

  it('the conversation’s languages replace the PAL’s; a visitor using another listed language is answered in it', async () => {
    const pal = await insertPal(t, { definition: { languages: ['de'], document_ids: [faqId], disclosure_type: 'always' } });
    const fr = await join(pal, { languages: ['fr'] });
    const said = fr.client.events('conversation.utterance').map((m) => m.properties.speech);
    assert.deepEqual(said, [palLine('fr', 'verbalDisclosure'), 'Bonjour, je suis Ava. Comment puis-je vous aider aujourd’hui ?']);
    assert.equal(fr.client.events('conversation.disclosure')[0]!.properties.visual_disclosure, palLine('fr', 'visualDisclosure'));
    fr.client.close();

    const both = await join(pal, { languages: ['en', 'de'] });
    assert.equal(both.greeting, "Hi, I'm Ava. How can I help you today?", 'the first listed language is the default');
    assert.equal(await both.ask('Hallo, wie geht es Ihnen?'), palLine('de', 'howAreYou'));
    assert.equal(await both.ask('Hello there!'), palLine('en', 'hello'));
    both.client.close();
  });

  it('with a language model: the prompt names the reply language, and the reply streams in cleaned of markdown', async () => {
    const config = t.service.deps.config.llm as { baseUrl: string | undefined };
    config.baseUrl = llm.baseUrl;
    try {
      const pal = await insertPal(t, { definition: { languages: ['de', 'en'], document_ids: [faqDeId] } });
      const { client, ask } = await join(pal);
      llm.reply = ['**Die', ' Lieferung**', ' dauert', ' meist', ' 3 bis 5', ' Werktage.'];
      assert.equal(await ask('Wie lange dauert die Lieferung?'), 'Die Lieferung dauert meist 3 bis 5 Werktage.');
      const system = llm.requests.at(-1)!.body.messages[0].content as string;
      assert.match(system, /Reply in German \(de\); if the visitor switches to English, reply in that language\./);
      assert.match(system, /no markdown/);
      assert.match(system, /3 bis 5 Werktage/, 'the passages are background');
      const streamed = client
        .events('conversation.utterance.streaming')
        .filter((m) => m.turn_idx === 1)
        .map((m) => m.properties.speech);
      assert.equal(streamed[0], 'Die');

      llm.reply = ['It', ' takes', ' three', ' days.'];
      await ask('How long does delivery take?');
      assert.match(llm.requests.at(-1)!.body.messages[0].content, /Reply in English \(en\); if the visitor switches to German/);
      client.close();
    } finally {
      config.baseUrl = undefined;
    }
  });
});

describe('a language model’s reply', () => {
  it('is passed on word by word, the first words before the model has finished', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const sse = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const enc = new TextEncoder();
        controller.enqueue(enc.encode(sse('Delivery ') + sse('takes')));
        await released;
        controller.enqueue(enc.encode(sse(' three days.') + 'data: [DONE]\n\n'));
        controller.close();
      },
    });
    const requests: any[] = [];
    const deps = {
      config: { llm: { baseUrl: 'http://llm.test/v1', apiKey: undefined, model: undefined } },
      fetch: async (_url: string, init: { body: string }) => {
        requests.push(JSON.parse(init.body));
        return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
      },
      log: { error() {}, info() {}, warn() {} },
    } as unknown as ServiceDeps;
    const conv = {
      conversationId: 'c1',
      ownerId: 1,
      memoryStores: [],
      properties: { languages: ['es'] },
      pal: { palId: 'p', name: 'Ava', pipelineMode: 'full', definition: { languages: ['de'] } },
    } as unknown as LiveConversation;
    const source = answerSource(
      { deps, conv, context: null, history: [], tools: Promise.resolve(PalTools.none(deps, 'c1')), onToolCall() {} },
      '¿Cuánto tarda la entrega?',
    );
    const it = source(new AbortController().signal)[Symbol.asyncIterator]();
    const first = await it.next();
    assert.equal(first.value, 'Delivery ', 'said while the model is still writing');
    assert.match(requests[0].messages[0].content, /Reply in Spanish \(es\)\./);
    release();
    const rest: string[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) if (typeof r.value === 'string') rest.push(r.value);
    assert.equal(rest.join(''), 'takes three days.');
  });
});
