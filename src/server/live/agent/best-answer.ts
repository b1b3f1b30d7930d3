// The sentence or two of what the PAL knows that answer a question, for replies without a language
// model: passages split into sentences (headings, list markers, titles and navigation crumbs dropped),
// each scored by the question's terms (stemmed in each text's language, common phrasings of one meaning
// counted as one, rarer terms weigh more) and by the heading or FAQ question it sits under; only a
// sentence holding the kind of fact the question asks for (a price, a time, a place) may answer it.

import { detectLanguage, spokenLanguages } from '../../resources/pals/lines/language.js';
import { asksPastKnowledge } from './near-miss.js';
import { askedKinds, type FactKind } from './question-kinds.js';
import { hasAddress } from './fact-kinds.js';
import { rowFor } from './ranges.js';
import { sentencesOf, type Sentence } from './knowledge-sentences.js';
import { lexicon, matches, termOfWord, terms } from './terms.js';

export interface Source {
  text: string;
  /** Added to every sentence's score (a pinned memory, a better retrieval rank). */
  boost?: number;
  /** Where the text came from: 'memory' sentences are phrased as something remembered. */
  kind?: 'passage' | 'memory' | 'context';
  /** The language it is written in (the question's when not given). */
  lang?: string;
}

export interface Picked {
  text: string;
  score: number;
  kind: 'passage' | 'memory' | 'context';
  /** The language of the source it was taken from. */
  lang: string;
}

export interface AnswerOptions {
  maxChars?: number;
  /** The question's language. */
  lang?: string;
  /** The kinds of fact the question asks for (askedKinds of it when not given): only a sentence holding one answers. */
  kinds?: FactKind[];
  /** Words of the question's other parts, for a part that names no topic of its own ("and what does it cost?"). */
  topicFrom?: string;
}

/** The language a source is written in: its words' language among those the PAL speaks, else `fallback`. */
export function sourceLanguage(text: string, fallback: string): string {
  return detectLanguage(text.slice(0, 2000), spokenLanguages) ?? fallback;
}

/**
 * The sentence (and the one after it, when that continues it briefly) of `sources` that best answers
 * `question`, or null when none shares enough with it or none holds the kind of fact it asks for.
 */
export function bestAnswer(question: string, sources: Source[], options: AnswerOptions = {}): Picked | null {
  const maxChars = options.maxChars ?? 300;
  const lang = options.lang ?? 'en';
  const kinds = options.kinds ?? askedKinds(question, lang);
  // The word that asks for a price is not the topic: the kind of fact answers it, not a sentence that says "cost".
  const topicOf = (text: string, priceAsked: boolean) =>
    [...new Set(terms(text, lang))].filter((t) => !(priceAsked && t === 'price') && !(kinds.includes('place') && isPlaceGeneric(t, lang)));
  let asked = topicOf(question, kinds.includes('price'));
  // "… and what does it cost?": the topic of the other parts, not the price they asked for.
  if (!asked.length && options.topicFrom) asked = topicOf(options.topicFrom, true);
  // "Where are you?": the business's own address.
  if (!asked.length && kinds.length === 1 && kinds[0] === 'place') return addressOf(sources, lang);
  if (!asked.length) return null;
  const sentences = sources.flatMap((s, i) => sentencesOf(s.text, i, s.kind === 'memory' || s.kind === 'context', s.lang ?? lang));
  if (!sentences.length) return null;
  const givesNumber = /\d/.test(question);
  // Rarer terms say more: weigh each question term by how few sentences contain it.
  const df = new Map<string, number>();
  for (const t of asked)
    df.set(t, sentences.filter((s) => s.terms.some((x) => matches(x, t)) || s.under.some((x) => matches(x, t))).length);
  const weight = (t: string) => Math.log(1 + sentences.length / Math.max(1, df.get(t) ?? 0));

  let best: { s: Sentence; score: number; own: number } | null = null;
  for (const s of sentences) {
    // A price question is answered by a price, a "when" question by a time: never by the nearest other fact.
    if (kinds.length && !kinds.some((k) => s.kinds.has(k))) continue;
    let own = 0;
    let context = 0;
    for (const t of asked) {
      if (s.terms.some((x) => matches(x, t))) own += weight(t);
      else if (s.under.some((x) => matches(x, t))) context += weight(t);
    }
    const relevance = own + 0.8 * context;
    if (relevance <= 0) continue;
    // A price or a time under a heading that names several things ("Check-ups and cleaning") may be
    // another thing's: under a heading, the sentence must name the topic itself (under an FAQ question, not).
    if (kinds.length && own === 0 && !s.underQuestion) continue;
    let score = relevance;
    // A table of ranges holding the number the question gives is the answer to it ("I'm 165 cm").
    if (givesNumber && rowFor(question, s.text)) score += 0.6 * Math.max(1, relevance);
    score += sources[s.source]?.boost ?? 0;
    // Long sentences read badly aloud and usually say several things.
    if (s.text.length > maxChars) score *= 0.5;
    else if (s.text.length > 200) score *= 0.85;
    if (!best || score > best.score) best = { s, score, own: relevance };
  }
  if (!best) return null;
  // Enough of the question is covered: one rare term, or a good share of the terms.
  const total = asked.reduce((n, t) => n + weight(t), 0);
  if (best.own < Math.min(1.2, total * 0.34)) return null;
  // The question names something the knowledge never does, next to what it knows: not an answer.
  const missing = new Set(asked.filter((t) => df.get(t) === 0 && !/\d/.test(t) && !lexicon(lang).filler.has(t)));
  const covered = asked.filter((t) => (df.get(t) ?? 0) > 0);
  const past = asksPastKnowledge({ question, missing, covered, termOf: (w) => terms(w, lang)[0], lang });
  // "How long does delivery to Berlin take?" answered by "We deliver across Europe in 3 to 5 working days":
  // a time or a price asked for a place the knowledge does not name, from a sentence that names its own
  // place, leaves the visitor to judge it; a yes/no question ("Do you deliver to Berlin?") would read as yes.
  const scoped = (past === 'qualifier' || past === 'name') && kinds.length > 0 && !kinds.includes('place') && best.s.kinds.has('place');
  if (past && !scoped) return null;

  const source = sources[best.s.source];
  const picked = (text: string): Picked => ({ text, score: best.score, kind: source?.kind ?? 'passage', lang: source?.lang ?? lang });
  // A table of ranges read for one number: only the row that holds it (185 cm → the L row).
  const row = rowFor(question, best.s.text);
  if (row) return picked(row);
  let text = best.s.text.length > maxChars ? shorten(best.s.text, maxChars) : best.s.text;
  const next = sentences.find((x) => x.source === best.s.source && x.index === best.s.index + 1);
  // The next sentence goes on only when it says more of the same kind (a price after a price, not a size).
  const sameKind = !kinds.length || kinds.some((k) => next?.kinds.has(k));
  if (
    next &&
    sameKind &&
    next.under === best.s.under &&
    text.length + 1 + next.text.length <= maxChars &&
    continues(next.text, asked, lang)
  )
    text = `${text} ${next.text}`;
  return picked(text);
}

// Words of "where are you / where is your practice" that name the business itself, not a topic.
const PLACE_GENERIC_WORDS = [
  'practice',
  'office',
  'clinic',
  'studio',
  'company',
  'business',
  'located',
  'location',
  'address',
  'find',
  'situated',
  'praxis',
  'büro',
  'firma',
  'adresse',
  'cabinet',
  'bureau',
  'consulta',
  'oficina',
  'studio',
  'ufficio',
  'escritório',
  'kantoor',
  'praktijk',
];
const placeGeneric = new Map<string, Set<string>>();
function isPlaceGeneric(term: string, lang: string): boolean {
  let set = placeGeneric.get(lang);
  if (!set) placeGeneric.set(lang, (set = new Set(PLACE_GENERIC_WORDS.map((w) => termOfWord(w, lexicon(lang))))));
  return set.has(term);
}

/** The sentence of the knowledge that gives an address, for "where are you?". */
function addressOf(sources: Source[], lang: string): Picked | null {
  for (const [i, source] of sources.entries()) {
    if (source.kind === 'memory') continue;
    const s = sentencesOf(source.text, i, source.kind === 'context', source.lang ?? lang).find((x) => hasAddress(x.text));
    if (s) return { text: s.text, score: 1, kind: source.kind ?? 'passage', lang: source.lang ?? lang };
  }
  return null;
}

// A sentence that leans on the one before it.
const CONTINUES =
  /^(?:this|that|it|they|these|those|if|however|but|so|also|otherwise|in that case|then|you can|we|dies|das|sie|es|wenn|falls|dann|aber|jedoch|außerdem|auch|ce|cela|si|mais|ensuite|esto|eso|si|pero|también|questo|se|ma|anche|isso|isto|se|mas|também|dit|dat|als|maar|ook)\b/iu;

function continues(text: string, asked: string[], lang: string): boolean {
  if (text.length > 160) return false;
  if (CONTINUES.test(text)) return true;
  const own = terms(text, lang);
  return asked.some((t) => own.some((x) => matches(x, t)));
}

/** A long sentence cut at a clause boundary before `max` characters. */
function shorten(text: string, max: number): string {
  const cut = text.slice(0, max);
  const at = Math.max(cut.lastIndexOf(', '), cut.lastIndexOf('; '), cut.lastIndexOf(' – '), cut.lastIndexOf(' — '));
  const head = at > max / 2 ? cut.slice(0, at) : cut.slice(0, cut.lastIndexOf(' '));
  return `${head.replace(/[,;:\s–—]+$/, '')}.`;
}
