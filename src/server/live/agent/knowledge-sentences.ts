// The sentences of a knowledge passage, memory or context as answers are picked from them: headings,
// list markers, titles and navigation crumbs dropped, each sentence with the heading or FAQ question it
// sits under, its terms and the kinds of fact it holds.
import { splitSentences } from '../../platform/text/sentences.js';
import { factKinds } from './fact-kinds.js';
import type { FactKind } from './question-kinds.js';
import { terms } from './terms.js';

export interface Sentence {
  text: string;
  terms: string[];
  /** Terms of the heading or FAQ question the sentence sits under. */
  under: string[];
  /** Whether that is an FAQ question (it names what the sentence answers) rather than a heading (a subject). */
  underQuestion: boolean;
  source: number;
  /** Index within its source, to find the sentence after it. */
  index: number;
  /** The kinds of fact it holds (a price, a time, a place). */
  kinds: Set<FactKind>;
}

const BULLET = /^\s*(?:[-*•·▪‣–—]|\d{1,2}[.)]|[a-z][.)])\s+/u;
const CRUMB = /\s(?:>|›|»|\/|\|)\s/;
const QA =
  /^\s*(?:q|a|question|answer|frage|antwort|f|r|réponse|pregunta|respuesta|domanda|risposta|pergunta|resposta|vraag|antwoord)\s*[:.]\s*/iu;
const ENDS_SENTENCE = /[.!?…。！？]["'”’)]?$/u;

/** Markdown and link markup removed, whitespace collapsed, URLs shortened to their host. */
export function plain(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/(?:www\.)?([^/\s)]+)[^\s)]*/g, '$1')
    .replace(/(\*\*|__|\*|`+|~~)(?=\S)([^*`~]*?\S)\1/g, '$2')
    .replace(/[*`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * The sentences of a source with the heading or question each sits under. `prose`: every line is
 * meant as a statement (a memory, the context), none is a title.
 */
export function sentencesOf(text: string, source: number, prose: boolean, lang: string): Sentence[] {
  const out: Sentence[] = [];
  let under: string[] = [];
  let underQuestion = false;
  for (const paragraph of text.split(/\n\s*\n/)) {
    const lines = paragraph
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    for (const raw of lines) {
      if (/^#{1,6}\s/.test(raw)) {
        under = terms(raw.replace(/^#+\s*/, ''), lang);
        underQuestion = /[?？]\s*$/u.test(raw);
        continue;
      }
      const isBullet = BULLET.test(raw);
      const line = plain(raw.replace(BULLET, '').replace(QA, ''));
      if (!line) continue;
      // Navigation crumbs (Home > Help > Delivery) and menus (About | Shop | Contact).
      if (CRUMB.test(line) && !ENDS_SENTENCE.test(line) && words(line) <= 12) continue;
      // A fact in a list (Weight: 24 kg) is kept as a sentence.
      const fact = isBullet && /^[^:]{2,30}:\s*\S/.test(line);
      // A title or heading: short, no sentence end. It says what the sentences below are about.
      if (
        !prose &&
        !fact &&
        !ENDS_SENTENCE.test(line) &&
        (words(line) < 6 || (!isBullet && words(line) < 9 && /^\p{Lu}/u.test(line) && !/[,;:]/.test(line)))
      ) {
        under = terms(line, lang);
        underQuestion = false;
        continue;
      }
      for (const s of splitSentences(line)) {
        // An FAQ question is not an answer; it says what the next sentences answer.
        if (/[?？]["'”’)]?$/u.test(s)) {
          under = terms(s, lang);
          underQuestion = true;
          continue;
        }
        if (words(s) < (fact || prose ? 2 : 3) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s)) continue;
        const sentence = ENDS_SENTENCE.test(s) ? s : `${s.replace(/[,;:\s]+$/, '')}.`;
        out.push({
          text: sentence,
          terms: terms(sentence, lang),
          under,
          underQuestion,
          source,
          index: out.length,
          kinds: factKinds(sentence),
        });
      }
    }
  }
  return out;
}
