// The sentence or two of what the PAL knows that answer a question, for replies without a language
// model: passages split into sentences (headings, list markers, titles and navigation crumbs dropped),
// each scored by the question's terms (stemmed in the reply language, common phrasings of one meaning
// counted as one, rarer terms weigh more), by the heading or FAQ
// question it sits under, and by what the question asks for (a duration, a place, a price).

import { splitSentences } from '../../platform/text/sentences.js';
import { asksPastKnowledge } from './near-miss.js';
import { rowFor } from './ranges.js';
import { paraphrased, stemmerFor, SYNONYM_GROUPS } from './stems.js';

export interface Source {
  text: string;
  /** Added to every sentence's score (a pinned memory, a better retrieval rank). */
  boost?: number;
  /** Where the text came from: 'memory' sentences are phrased as something remembered. */
  kind?: 'passage' | 'memory' | 'context';
}

export interface Picked {
  text: string;
  score: number;
  kind: 'passage' | 'memory' | 'context';
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
    'viele bitte man mal denn doch sich sein seine ' +
    'le la les un une des du de est sont était comment quoi quand où pourquoi qui quel quelle peut pouvez vous votre je mon moi ce et ou ' +
    'avec pour avez combien pas au aux dans sur ' +
    'el los las una es son era cómo como qué que cuándo dónde por quién cuál puede puedo usted su yo mi esto con para tiene cuánto tarda del al ' +
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
const FILLER_WORDS = 'actually really exactly maybe perhaps still already usually generally normally currently ever again else anything something everything information info details detail method methods option options kind sort type types question questions guys hey okay hello thanks please send back find look looking someone somebody anyone anybody person people myself yourself'.split(' ');

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
    const canonical = new Map<string, string>(SYNONYM_GROUPS.flatMap((group) => group.map((w) => [stemOf(w), stemOf(group[0]!)] as [string, string])));
    lex = { stem: stemOf, canonical, filler: new Set(FILLER_WORDS.map(stemOf)) };
    lexicons.set(lang, lex);
  }
  return lex;
}

/** A word's stem, or the stem of the word its synonym group counts as. */
function termOfWord(word: string, lex: Lexicon): string {
  const s = lex.stem(word);
  return lex.canonical.get(s) ?? s;
}

/**
 * The words of a text: letters and digits; a hyphen joins a short prefix to its word (e-bike, x-ray,
 * e-mail are one thing), other hyphens separate.
 */
function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []).flatMap((w) => {
    const parts = w.split('-');
    return parts.length > 1 && parts[0]!.length <= 2 && !/\d/.test(w) ? [parts.join('')] : parts;
  });
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
  const found = wordsOf(paraphrased(text)).filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOP.has(w)).map((w) => termOfWord(w, lex));
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

// What a question asks for, and what a sentence answering it tends to contain.
const ASKS: Array<{ question: RegExp; answer: RegExp }> = [
  {
    // a duration, a time or a number
    question: /\b(?:how (?:long|many|much|soon|often|quickly|fast)|when|what time|wie (?:lange|viele?|oft|schnell|bald|spät)|wann|bis wann|combien|quand|cuánto|cuántos|cuándo|quanto|quanti|quando|quantos|hoe (?:lang|veel|snel|vaak)|wanneer)\b|いつ|どのくらい/iu,
    answer: /\d|\b(?:one|two|three|four|five|six|seven|ten|twelve|a few|several|eins?|zwei|drei|vier|fünf|sechs|sieben|zehn|wenige|un|deux|trois|uno|dos|tres|due|tre|um|dois|três|twee|drie|minutes?|hours?|days?|weeks?|months?|years?|minuten|stunden?|tagen?|wochen?|monaten?|jahren?|heures?|jours?|semaines?|mois|horas?|días|semanas?|meses|ore|giorni|settimane|mesi|dias|uur|dagen|weken|maanden|morning|evening|noon|midnight|today|tomorrow|weekdays?|werktagen?|morgen|heute)\b/iu,
  },
  {
    // a place
    question: /\b(?:where|wo|wohin|woher|où|dónde|donde|dove|onde|waar)\b|どこ/iu,
    answer: /\b(?:in|at|near|located|address|street|road|avenue|floor|building|city|centre|center|adresse|straße|strasse|platz|gebäude|liegt|befindet|stock|rue|calle|via|rua|straat|im|am)\b|\d{4,5}/iu,
  },
  {
    // a price
    question: /\b(?:cost|costs|price|prices|pricing|fee|fees|charge|how much|kostet|kosten|preis|preise|gebühr|prix|coûte|precio|cuesta|prezzo|costa|preço|custa|prijs|kost)\b/iu,
    answer: /[€$£¥]|\b(?:eur|euros?|usd|dollars?|pounds?|free|kostenlos|gratis|gratuit|free of charge|cents?)\b|\d/iu,
  },
];

interface Sentence {
  text: string;
  terms: string[];
  /** Terms of the heading or FAQ question the sentence sits under. */
  under: string[];
  source: number;
  /** Index within its source, to find the sentence after it. */
  index: number;
}

const BULLET = /^\s*(?:[-*•·▪‣–—]|\d{1,2}[.)]|[a-z][.)])\s+/u;
const CRUMB = /\s(?:>|›|»|\/|\|)\s/;
const QA = /^\s*(?:q|a|question|answer|frage|antwort|f|r|réponse|pregunta|respuesta|domanda|risposta|pergunta|resposta|vraag|antwoord)\s*[:.]\s*/iu;
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
  for (const paragraph of text.split(/\n\s*\n/)) {
    const lines = paragraph.split('\n').map((l) => l.trim()).filter(Boolean);
    for (const raw of lines) {
      if (/^#{1,6}\s/.test(raw)) {
        under = terms(raw.replace(/^#+\s*/, ''), lang);
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
      if (!prose && !fact && !ENDS_SENTENCE.test(line) && (words(line) < 6 || (!isBullet && words(line) < 9 && /^\p{Lu}/u.test(line) && !/[,;:]/.test(line)))) {
        under = terms(line, lang);
        continue;
      }
      for (const s of splitSentences(line)) {
        // An FAQ question is not an answer; it says what the next sentences answer.
        if (/[?？]["'”’)]?$/u.test(s)) {
          under = terms(s, lang);
          continue;
        }
        if (words(s) < (fact || prose ? 2 : 3) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s)) continue;
        const sentence = ENDS_SENTENCE.test(s) ? s : `${s.replace(/[,;:\s]+$/, '')}.`;
        out.push({ text: sentence, terms: terms(sentence, lang), under, source, index: out.length });
      }
    }
  }
  return out;
}

/**
 * The sentence (and the one after it, when that continues it briefly) of `sources` that best answers
 * `question`, or null when none shares enough with it.
 */
export function bestAnswer(question: string, sources: Source[], options: { maxChars?: number; lang?: string } = {}): Picked | null {
  const maxChars = options.maxChars ?? 300;
  const lang = options.lang ?? 'en';
  const asked = [...new Set(terms(question, lang))];
  const sentences = sources.flatMap((s, i) => sentencesOf(s.text, i, s.kind === 'memory' || s.kind === 'context', lang));
  if (!sentences.length) return null;
  const wants = ASKS.filter((a) => a.question.test(question));
  const givesNumber = /\d/.test(question);
  // Rarer terms say more: weigh each question term by how few sentences contain it.
  const df = new Map<string, number>();
  for (const t of asked) df.set(t, sentences.filter((s) => s.terms.some((x) => matches(x, t)) || s.under.some((x) => matches(x, t))).length);
  const weight = (t: string) => Math.log(1 + sentences.length / Math.max(1, df.get(t) ?? 0));

  let best: { s: Sentence; score: number; own: number } | null = null;
  for (const s of sentences) {
    let own = 0;
    let context = 0;
    for (const t of asked) {
      if (s.terms.some((x) => matches(x, t))) own += weight(t);
      else if (s.under.some((x) => matches(x, t))) context += weight(t);
    }
    const relevance = own + 0.8 * context;
    if (relevance <= 0) continue;
    let score = relevance;
    for (const w of wants) if (w.answer.test(s.text)) score += 0.6 * Math.max(1, relevance / 2);
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
  if (asksPastKnowledge({ question, missing, covered, termOf: (w) => terms(w, lang)[0], lang })) return null;

  // A table of ranges read for one number: only the row that holds it (185 cm → the L row).
  const row = rowFor(question, best.s.text);
  if (row) return { text: row, score: best.score, kind: sources[best.s.source]?.kind ?? 'passage' };
  let text = best.s.text.length > maxChars ? shorten(best.s.text, maxChars) : best.s.text;
  const next = sentences.find((x) => x.source === best.s.source && x.index === best.s.index + 1);
  if (next && next.under === best.s.under && text.length + 1 + next.text.length <= maxChars && continues(next.text, asked, lang)) text = `${text} ${next.text}`;
  return { text, score: best.score, kind: sources[best.s.source]?.kind ?? 'passage' };
}

// A sentence that leans on the one before it.
const CONTINUES = /^(?:this|that|it|they|these|those|if|however|but|so|also|otherwise|in that case|then|you can|we|dies|das|sie|es|wenn|falls|dann|aber|jedoch|außerdem|auch|ce|cela|si|mais|ensuite|esto|eso|si|pero|también|questo|se|ma|anche|isso|isto|se|mas|também|dit|dat|als|maar|ook)\b/iu;

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
