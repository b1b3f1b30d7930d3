// The answer contract's figures (test/server/live/agent/answers/contract.ts), without a language model: the share
// of facts held in each of the three phrasings each is asked in, the near-misses and outside questions
// answered with a fact instead of honestly, and the time one answer takes.
import { answerFromKnowledge, type Recall } from '../src/server/live/agent/knowledge.js';
import { palLine } from '../src/server/resources/pals/lines/language.js';
import { CASES, FACTS, KNOWLEDGE } from '../test/server/live/agent/answers/contract.js';

export default async function answersBench(): Promise<void> {
  const known: Recall = { passages: [{ ...KNOWLEDGE, score: 0.8 }], memories: [] };
  const notSure = palLine('en', 'unsureWithTopics', { topics: KNOWLEDGE.document_name });
  const holds = (f: (typeof FACTS)[number], i: number) => {
    const reply = answerFromKnowledge(f.asks[i]!, known, null, 'en');
    return f.says.test(reply) && !(f.notSays?.test(reply) ?? false);
  };
  for (const i of [0, 1, 2]) {
    const missed = FACTS.filter((f) => !holds(f, i));
    const share = (100 * (FACTS.length - missed.length)) / FACTS.length;
    console.log(
      `facts held, phrasing ${i + 1}: ${share.toFixed(1)} % (${FACTS.length - missed.length} of ${FACTS.length})${missed.length ? `; missed: ${missed.map((f) => f.asks[i]).join(' | ')}` : ''}`,
    );
  }
  const honest = CASES.filter((c) => c.kind !== 'fact');
  const wrong = honest.filter((c) => answerFromKnowledge(c.ask, known, null, 'en') !== notSure);
  console.log(
    `near-misses and outside questions answered with a fact: ${wrong.length} of ${honest.length}${wrong.length ? ` (${wrong.map((c) => c.ask).join(' | ')})` : ''}`,
  );
  const start = performance.now();
  const rounds = 50;
  for (let r = 0; r < rounds; r++) for (const c of CASES) answerFromKnowledge(c.ask, known, null, 'en');
  console.log(`one answer: ${((performance.now() - start) / (rounds * CASES.length)).toFixed(2)} ms`);
}
