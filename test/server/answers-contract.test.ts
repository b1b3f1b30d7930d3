// Runs the answer contract (test/server/answers/contract.ts) against the PAL's knowledge answers, without
// a language model: facts in at most two sentences, near-misses and outside questions answered honestly
// with no fact of the knowledge offered as the answer. Also: a "yes" after "not sure" does not loop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFromKnowledge, type Recall } from '../../src/server/live/agent/knowledge.js';
import { palLine } from '../../src/server/live/agent/language.js';
import { splitSentences } from '../../src/server/platform/text/sentences.js';
import { CASES, KNOWLEDGE } from './answers/contract.js';

const known: Recall = { passages: [{ ...KNOWLEDGE, score: 0.8 }], memories: [] };
const notSure = palLine('en', 'unsureWithTopics', { topics: KNOWLEDGE.document_name });
// Every sentence of the knowledge long enough to be a fact: none may appear in an honest "not sure".
const facts = KNOWLEDGE.content.split('\n').flatMap((l) => splitSentences(l)).filter((s) => s.split(' ').length >= 4);

describe('the answer contract (no language model)', () => {
  for (const c of CASES) {
    it(`${c.kind}: ${c.ask}`, () => {
      const reply = answerFromKnowledge(c.ask, known, null, 'en');
      if (c.kind === 'fact') {
        assert.match(reply, c.says, reply);
        if (c.notSays) assert.doesNotMatch(reply, c.notSays, reply);
        assert.ok(splitSentences(reply).length <= 2, `at most two sentences: ${reply}`);
        assert.notEqual(reply, notSure);
        assert.doesNotMatch(reply, /^(?:Sure|Yes)\b/, 'no yes before a fact');
        return;
      }
      assert.equal(reply, notSure, `an honest answer, not the nearest fact: ${reply}`);
      for (const fact of facts) assert.ok(!reply.includes(fact.replace(/\.$/, '')), `no fact offered: ${fact}`);
    });
  }

  it('the "not sure" line offers only what the PAL can do, so a "yes" after it does not loop', () => {
    assert.doesNotMatch(notSure, /connect you|a person/);
    const yes = answerFromKnowledge('Yes', known, null, 'en');
    assert.equal(yes, palLine('en', 'ack'));
    assert.notEqual(yes, notSure);
    assert.equal(answerFromKnowledge('Ja, bitte', known, null, 'de'), palLine('de', 'ack'));
  });
});
