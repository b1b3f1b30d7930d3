// The topic terms of a text as answers without a language model compare them: its words (names with
// their numbers kept as one), function and filler words dropped, common phrasings rewritten, each word
// stemmed in the text's language and counted as the first word of its synonym group.
import { paraphrased } from './phrasings.js';
import { stemmerFor } from './stems.js';
import { SYNONYM_GROUPS } from './synonyms.js';

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

export function lexicon(lang: string): Lexicon {
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
export function termOfWord(word: string, lex: Lexicon): string {
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

/** The topic terms of a text in `lang`, its common phrasings rewritten (phrasings.ts), stemmed. */
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
export function matches(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (!long.startsWith(short)) return false;
  // Liefer- in Lieferzeit; pay in payment, ship in shipping.
  return short.length >= 5 || (short.length >= 3 && /^(?:ment|ments|ing|ed|er|able|ung|ation|ations)$/.test(long.slice(short.length)));
}
