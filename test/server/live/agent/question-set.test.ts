// Issue 54's question set (answers/question-set.ts) against the PAL's answers without a language model:
// every expected fact stated, in the visitor's language's frame when the knowledge is in another; every
// honest question answered with the honest line in the visitor's language and no fact; the part of a
// two-part question the knowledge cannot answer named. Prints how many pass per language and kind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFromKnowledge, type Recall } from '../../../../src/server/live/agent/knowledge.js';
import { answerLine, palLine, replyLanguage } from '../../../../src/server/resources/pals/lines/language.js';
import { splitSentences } from '../../../../src/server/platform/text/sentences.js';
import { DOCUMENTS, QUESTIONS, type Question } from './answers/question-set.js';

const recallOf = (doc: Question['doc']): Recall => ({ passages: [{ ...DOCUMENTS[doc], score: 0.8 }], memories: [] });

/** Every sentence of a document long enough to be a fact: none may appear in an honest line. */
const factsOf = (doc: Question['doc']) =>
  DOCUMENTS[doc].content
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .flatMap((l) => splitSentences(l))
    .filter((s) => s.split(' ').length >= 4);

/** What is wrong with the reply to `q` (null when it is right). */
export function verdict(q: Question, reply: string): string | null {
  const unsure = palLine(q.lang, 'unsureWithTopics', { topics: DOCUMENTS[q.doc].document_name });
  if (q.unsure) {
    if (reply !== unsure) return `expected the honest line "${unsure}"`;
    const offered = factsOf(q.doc).find((f) => reply.includes(f.replace(/\.$/, '')));
    return offered ? `offered a fact: ${offered}` : null;
  }
  for (const fact of q.says ?? []) if (!fact.test(reply)) return `missing ${fact}`;
  if (q.notSays?.test(reply)) return `says ${q.notSays}, a fact that does not answer the question`;
  if (reply === unsure) return 'said "not sure"';
  if (q.partUnsure) {
    const key = ({ price: 'unsurePrice', time: 'unsureTime', place: 'unsurePlace', other: 'unsurePart' } as const)[q.partUnsure];
    const line = answerLine(q.lang, key, { part: '' }).split('{')[0]!.slice(0, 12);
    if (!reply.includes(line)) return `does not say which part it cannot answer (${key})`;
  }
  // A fact from the English documents is quoted inside a frame in the visitor's language.
  if (q.lang !== 'en') {
    const frame = answerLine(q.lang, 'quoted', { fact: '' }).slice(0, 10);
    if (!reply.includes(frame)) return `not framed in ${q.lang}`;
    if (reply.split(frame).length > 2) return `the ${q.lang} frame said more than once`;
  }
  return null;
}

describe('the question set without a language model (issue 54)', () => {
  for (const q of QUESTIONS) {
    it(`${q.lang} ${q.kind}: ${q.ask}`, () => {
      const reply = answerFromKnowledge(q.ask, recallOf(q.doc), null, q.lang);
      const wrong = verdict(q, reply);
      assert.equal(wrong, null, `${wrong}\n  reply: ${reply}`);
    });
  }

  it('a PAL created without a language replies in the visitor’s; one whose owner set languages keeps to them', () => {
    const conv = (languages?: string[], own?: string[]) =>
      ({ properties: own ? { languages: own } : {}, pal: { definition: languages ? { languages } : {} } }) as Parameters<
        typeof replyLanguage
      >[0];
    for (const q of QUESTIONS) assert.equal(replyLanguage(conv(), q.ask), q.lang, q.ask);
    for (const q of QUESTIONS.filter((x) => x.lang !== 'en')) assert.equal(replyLanguage(conv(['en']), q.ask), 'en', q.ask);
    assert.equal(
      replyLanguage(conv(['de'], ['fr']), 'Wie lange dauert die Lieferung?'),
      'fr',
      'the conversation’s languages replace the PAL’s',
    );
    assert.equal(replyLanguage(conv(['en', 'de']), 'Wie lange dauert die Lieferung?'), 'de');
  });

  it('has at least 40 questions over three documents, and at least 10 each in German, French and Japanese (the figures)', () => {
    const count = (f: (q: Question) => boolean) => QUESTIONS.filter(f).length;
    const byLang = ['en', 'de', 'fr', 'ja'].map((l) => `${l} ${count((q) => q.lang === l)}`).join(', ');
    const byKind = ['direct', 'reworded', 'two-part', 'near-miss', 'unknown'].map((k) => `${k} ${count((q) => q.kind === k)}`).join(', ');
    const passed = count((q) => verdict(q, answerFromKnowledge(q.ask, recallOf(q.doc), null, q.lang)) === null);
    console.log(`question set: ${passed} of ${QUESTIONS.length} right (${byLang}; ${byKind})`);
    assert.ok(QUESTIONS.length >= 40);
    assert.equal(new Set(QUESTIONS.map((q) => q.doc)).size, 3);
    for (const l of ['de', 'fr', 'ja']) assert.ok(count((q) => q.lang === l) >= 10, l);
    for (const k of ['direct', 'reworded', 'two-part', 'near-miss', 'unknown']) assert.ok(count((q) => q.kind === k) >= 3, k);
  });
});
