// Issue 54's question set (answers/question-set.ts) with a language model configured: the service in
// process, its documents ingested from a local site, the model a stand-in speaking OpenAI's streaming
// wire format (helpers/fake-llm.ts). For every question the request carries the knowledge that holds
// the expected facts, the question, and the visitor's language as the reply language (the PAL names
// none); the model's reply is passed on as written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import { answerSource } from '../../../../src/server/live/agent/answer.js';
import { PalTools } from '../../../../src/server/live/agent/tools.js';
import { replyLanguage } from '../../../../src/server/resources/pals/lines/language.js';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { startSite, waitForDocument, type TestSite } from '../../../helpers/site.js';
import { DOCUMENTS, QUESTIONS, type Question } from './answers/question-set.js';

const NAMES = { en: 'English', de: 'German', fr: 'French', ja: 'Japanese' };

describe('the question set with a language model (issue 54)', () => {
  let t: TestService;
  let site: TestSite;
  let llm: FakeLlm;
  const ids = {} as Record<Question['doc'], string>;

  before(async () => {
    site = await startSite(
      Object.fromEntries(Object.entries(DOCUMENTS).map(([k, d]) => [`/${k}.md`, { body: d.content, type: 'text/markdown' }])),
    );
    t = await startListeningService();
    llm = await startFakeLlm();
    llm.chunkDelayMs = 0;
    for (const [key, doc] of Object.entries(DOCUMENTS)) {
      const created = await t.api('POST', '/v2/documents', { document_url: `${site.origin}/${key}.md`, document_name: doc.document_name });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const ready = await waitForDocument(t.api, created.body.document_id);
      assert.equal(ready.status, 'ready', ready.error_message);
      ids[key as Question['doc']] = ready.document_id;
    }
    (t.service.deps.config.llm as { baseUrl: string | undefined }).baseUrl = llm.baseUrl;
  });
  after(async () => {
    (t.service.deps.config.llm as { baseUrl: string | undefined }).baseUrl = undefined;
    await t.close();
    await site.close();
    await llm.close();
  });

  // A PAL created without a language, as the demo's.
  const convFor = (doc: Question['doc']) =>
    ({
      conversationId: `c-${doc}`,
      ownerId: 1,
      memoryStores: [],
      properties: {},
      pal: { palId: 'p', name: 'Nova', pipelineMode: 'full', definition: { document_ids: [ids[doc]] } },
    }) as unknown as LiveConversation;

  for (const [i, q] of QUESTIONS.entries()) {
    it(`${q.lang} ${q.kind}: ${q.ask}`, async () => {
      const conv = convFor(q.doc);
      const written = [`Reply `, `number ${i} `, `in ${NAMES[q.lang]}.`];
      llm.reply = written;
      const source = answerSource(
        {
          deps: t.service.deps,
          conv,
          context: null,
          history: [],
          tools: Promise.resolve(PalTools.none(t.service.deps, conv.conversationId)),
          onToolCall() {},
        },
        q.ask,
      );
      let said = '';
      for await (const part of source(new AbortController().signal)) if (typeof part === 'string') said += part;
      assert.equal(said.trim(), written.join('').trim(), 'the model’s reply is passed on');

      const request = llm.requests.at(-1)!.body;
      assert.equal(request.stream, true);
      const system: string = request.messages[0].content;
      assert.equal(request.messages.at(-1).content, q.ask, 'the question is the last message');
      assert.equal(replyLanguage(conv, q.ask), q.lang);
      assert.match(
        system,
        new RegExp(`Reply in ${NAMES[q.lang]} \\(${q.lang}\\); always reply in the language of the visitor's last message`),
      );
      assert.match(system, /if it does not cover the question, say you are not sure/);
      // The knowledge that holds the answer is in the request, whatever language the question is in.
      for (const fact of q.says ?? []) assert.match(system, fact, `the request carries ${fact}`);
      assert.ok(system.includes(DOCUMENTS[q.doc].document_name), 'the document is named as background');
    });
  }
});
