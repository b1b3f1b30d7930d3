// The sentence or two of what the PAL knows that answer a question, for replies without a language
// model: passages split into sentences (headings, list markers, titles and navigation crumbs dropped),
// each scored by the question's terms (stemmed in each text's language, common phrasings of one meaning
// counted as one, rarer terms weigh more) and by the heading or FAQ question it sits under; only a
// sentence holding the kind of fact the question asks for (a price, a time, a place) may answer it.

import { splitSentences } from '../../platform/text/sentences.js';
import { detectLanguage, spokenLanguages } from '../../resources/pals/lines/language.js';
import { asksPastKnowledge } from './near-miss.js';
import { askedKinds, type FactKind } from './question-kinds.js';
import { factKinds, hasAddress } from './fact-kinds.js';
import { rowFor } from './ranges.js';
import { paraphrased } from './phrasings.js';
import { stemmerFor } from './stems.js';
import { SYNONYM_GROUPS } from './synonyms.js';

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

// Function words of the languages the PAL speaks, and verbs that carry no topic.
const STOP = new Set(
  (
    'the a an is are was were be been do does did how what when where why who whom which can could would should will shall may might must ' +
    'you your yours i my me mine we our us it its this that these those of to in on at by for from with about as into onto over under ' +
    'and or but not no yes if then than so too very just also there their them they he she his her have has had get gets got take takes took ' +
    'tell know please want like need make long much many soon often any some all more most there here one ones thing things way ' +
    'der die das den dem des ein eine einen einem einer eines ist sind war waren wird werden kann können könnte muss wie was wann wo warum wer ' +
    'welche welcher welches sie ihr ihre ihnen ich mein meine mich mir wir uns es dies diese dieser und oder aber nicht kein keine ja nein ' +
    'mit für von zu zum zur auf aus bei nach über unter um an im in am auch noch schon sehr nur gibt habe hat haben dauert dauern lange viel ' +
    'viele bitte man mal denn doch sich sein seine beim vom ins ans aufs fürs er ' +
    'le la les un une des du de est sont était comment quoi quand où pourquoi qui quel quelle peut pouvez vous votre je mon moi ce et ou ' +
    'avec pour avez combien pas au aux dans sur il ils elle elles lui leur leurs on ' +
    'el los las una es son era cómo como qué que cuándo dónde por quién cuál puede puedo usted su yo mi esto con para tiene cuánto tarda del al ella ello ellos ' +
    'il lo gli è sono come cosa quando dove perché chi quale può posso lei suo io mio questo per ha quanto della non ' +
    'o os as um uma são quem qual pode você seu eu meu isto com tem quanto quantos do da não ' +
    'het een zijn hoe wat wanneer waar waarom wie welke kunt kunnen u jij je uw ik mijn mij dit dat en met voor heeft lang veel niet'
  ).split(/\s+/),
);

/** A term as compared: lower-cased, common inflections cut (deliveries → delivery, Lieferungen → lieferung). */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 4) return w;
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ungen', 'ing', 'ed', 'es', 'en', 'er', 'e', 's', 'n']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

// Words that carry no topic of their own in a question; their absence from the knowledge says nothing.
const FILLER_WORDS =
  'actually really exactly maybe perhaps still already usually generally normally currently ever again else anything something everything information info details detail method methods option options kind sort type types question questions guys hey okay hello thanks please send back find look looking someone somebody anyone anybody person people myself yourself'.split(
    ' ',
  );

/** How one language's words are compared: its stemmer, its synonym groups and filler words as stems. */
interface Lexicon {
  stem(word: string): string;
  canonical: Map<string, string>;
  filler: Set<string>;
}
const lexicons = new Map<string, Lexicon>();

function lexicon(lang: string): Lexicon {
  let lex = lexicons.get(lang);
  if (!lex) {
    const snow = stemmerFor(lang);
    // Snowball's stem, then the old suffix cut for what it leaves (a German word in an English text).
    const stemOf = (word: string) => stem(snow(word.toLowerCase()));
    // A group's words count as its first word as written, whatever the language: a German question and
    // an English sentence meet on 'delivery' (Lieferung, livraison, 配送 all count as it).
    const canonical = new Map<string, string>(
      SYNONYM_GROUPS.flatMap((group) => group.map((w) => [stemOf(w), group[0]!] as [string, string])),
    );
    lex = { stem: stemOf, canonical, filler: new Set(FILLER_WORDS.map(stemOf)) };
    lexicons.set(lang, lex);
  }
  return lex;
}

/** A word's stem, or the stem of the word its synonym group counts as. */
function termOfWord(word: string, lex: Lexicon): string {
  const s = lex.stem(word);
  const known = lex.canonical.get(s);
  if (known) return known;
  // A compound that begins with a word of a group counts as it (Lieferzeit, Versandkosten → delivery).
  if (s.length >= 8) for (const [key, group] of lex.canonical) if (key.length >= 6 && s.startsWith(key)) return group;
  return s;
}

/**
 * The words of a text: letters and digits; a hyphen joins a short prefix to its word (e-bike, x-ray,
 * e-mail are one thing), other hyphens separate.
 */
function wordsOf(text: string): string[] {
  // French inversion: "coûte-t-elle", "puis-je" are the verb and a pronoun.
  const uninverted = text.replace(/(?:-t)?-(?:je|tu|il|elle|on|nous|vous|ils|elles)(?![\p{L}])/giu, ' ');
  return (
    separateScripts(namesWithNumbers(uninverted))
      .toLowerCase()
      .match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []
  ).flatMap((w) => {
    const parts = w.split('-');
    return parts.length > 1 && parts[0]!.length <= 2 && !/\d/.test(w) ? [parts.join('')] : parts;
  });
}

/** Runs of Japanese, Chinese or Korean apart from Latin words and numbers beside them ("Trail 29のサイズ"). */
function separateScripts(text: string): string {
  return text.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu, ' $& ');
}

// Words that begin a sentence or a clause before a number without naming anything ("Within 30 days").
const NOT_A_NAME =
  /^(?:within|in|from|after|before|over|under|up|about|only|all|just|for|to|at|by|on|pay|open|call|page|step|version|vor|nach|bis|ab|seit|innerhalb|binnen|mit|für|dans|sous|en|après|avant|dès|depuis|pour|en|tras|desde|hasta|por|para|entro|dopo|prima|da|per|em|após|até|binnen|na|voor|tot|met)$/i;

/** A name and its number as one word ("Trail 29", "Trekker 500"): the 29 of a name is not the 29 of a price. */
function namesWithNumbers(text: string): string {
  return text.replace(
    /(?<![\p{L}\p{N}])(\p{Lu}[\p{L}]{2,})\s+(\d+)(?![\d.,:%]|\s*(?:%|€|\$|£|cm|mm|kg|km|h\b))/gu,
    (all, name: string, n: string) => (NOT_A_NAME.test(name) || STOP.has(name.toLowerCase()) ? all : `${name}${n}`),
  );
}

// The knowledge's sentences are read again for every question: their terms are kept (a bounded cache).
const TERMS_CACHE_SIZE = 5000;
const termsCache = new Map<string, string[]>();

/** The topic terms of a text in `lang`, its common phrasings rewritten (stems.ts), stemmed. */
export function terms(text: string, lang = 'en'): string[] {
  const key = `${lang}\u0000${text}`;
  const cached = termsCache.get(key);
  if (cached) return cached;
  const lex = lexicon(lang);
  const found = wordsOf(paraphrased(text))
    .filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOP.has(w))
    .map((w) => termOfWord(w, lex));
  if (termsCache.size >= TERMS_CACHE_SIZE) termsCache.clear();
  termsCache.set(key, found);
  return found;
}

/** Two stems match when equal, or one begins the other and is long enough (Liefer- in Lieferzeit). */
function matches(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (!long.startsWith(short)) return false;
  // Liefer- in Lieferzeit; pay in payment, ship in shipping.
  return short.length >= 5 || (short.length >= 3 && /^(?:ment|ments|ing|ed|er|able|ung|ation|ations)$/.test(long.slice(short.length)));
}

interface Sentence {
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
function sentencesOf(text: string, source: number, prose: boolean, lang: string): Sentence[] {
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
