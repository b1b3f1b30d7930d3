// How long a pause must last before the visitor's turn is over, from the words heard so far: a sentence
// that is over (a full stop, a question mark) needs only the pause that was already heard; words that
// trail off (a conjunction, an article, a filler such as "um", a comma) get a long wait, so that a
// visitor who stops to think mid-sentence is not answered half-way; anything else keeps the old 600 ms.
import { HANGOVER_MS } from '../engines/vad.js';

/**
 * The words end a sentence: end the turn as soon as they are known, once the pause is this long (a fast
 * recogniser must not turn the gap before a word into an end: the detector's silence starts ~100 ms late).
 */
export const SENTENCE_END_MS = 250;
/** The words trail off: wait this long for more. */
export const TRAILING_MS = 1500;
/** Not sure (no punctuation, or no words yet): the fixed pause turns used to need. */
export const UNSURE_MS = HANGOVER_MS;

// Words after which an English statement cannot end; recognisers often close a trailing fragment with a
// full stop ("I would like to know the."), so these win over a full stop (not over a question mark: "What
// is it for?" is over). Fillers win over everything. Lower case, without apostrophes.
const TRAILING_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'so', 'because', 'if', 'that', 'which', 'who', 'whose', 'to', 'of', 'in', 'on', 'at',
  'for', 'with', 'from', 'by', 'about', 'into', 'than', 'as', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'these',
  'those', 'is', 'are', 'was', 'were', 'am', 'be', 'do', 'does', 'did', 'can', 'could', 'would', 'should', 'will', 'shall',
  'may', 'might', 'must', 'have', 'has', 'had', 'im', 'youre', 'like', 'when',
  'where', 'while', 'although', 'though', 'whether', 'some', 'any', 'what', 'how', 'why', 'also', 'then', 'just', 'very',
]);
const FILLERS = new Set(['um', 'uh', 'erm', 'er', 'hmm', 'mm', 'uhm', 'umm', 'ehm']);

/** At most this much of the end of the words is looked at (a turn's text may be long; the end decides). */
const TAIL_CHARS = 200;

export type TurnEnding = 'sentence-end' | 'trailing' | 'unsure';

/** What the words so far say about the turn's end. */
export function turnEnding(words: string): TurnEnding {
  const tail = words.slice(-TAIL_CHARS).trim();
  if (!tail) return 'unsure';
  // A dash, a comma or dots (an ellipsis) mean more is coming.
  if (/(?:[,;:\-–—]|\.\.+|…)["'”’)\]]*$/u.test(tail)) return 'trailing';
  const last = tail.match(/([\p{L}']+)[^\p{L}']*$/u)?.[1]?.toLowerCase().replace(/'/g, '') ?? '';
  if (FILLERS.has(last)) return 'trailing';
  if (/[?!？！]["'”’)\]]*$/u.test(tail)) return 'sentence-end';
  if (TRAILING_WORDS.has(last)) return 'trailing';
  if (/[.。]["'”’)\]]*$/u.test(tail)) return 'sentence-end';
  return 'unsure';
}

/** The pause (ms) that ends a turn whose words so far are these. */
export function pauseToEndTurn(words: string): number {
  const ending = turnEnding(words);
  return ending === 'sentence-end' ? SENTENCE_END_MS : ending === 'trailing' ? TRAILING_MS : UNSURE_MS;
}
