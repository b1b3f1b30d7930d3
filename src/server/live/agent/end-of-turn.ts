// How long a pause must last before the visitor's turn is over, from the words heard so far: a sentence
// that is over (a full stop, a question mark) needs only the pause that was already heard; words that
// trail off (a comma; a conjunction, an article or a filler such as "um" in the conversation's language,
// see trailing-words.ts) get a long wait, so that a visitor who stops to think mid-sentence is not
// answered half-way; anything else keeps the old 600 ms.
import { HANGOVER_MS } from '../ears/vad.js';
import { trailingWordsOf } from './trailing-words.js';

/**
 * The words end a sentence: end the turn as soon as they are known, once the pause is this long (a fast
 * recogniser must not turn the gap before a word into an end: the detector's silence starts ~100 ms late).
 */
export const SENTENCE_END_MS = 250;
/** The words trail off: wait this long for more. */
export const TRAILING_MS = 1500;
/** Not sure (no punctuation, or no words yet): the fixed pause turns used to need. */
export const UNSURE_MS = HANGOVER_MS;

/** At most this much of the end of the words is looked at (a turn's text may be long; the end decides). */
const TAIL_CHARS = 200;

export type TurnEnding = 'sentence-end' | 'trailing' | 'unsure';

/**
 * What the words so far, in the conversation's language, say about the turn's end. Recognisers often
 * close a trailing fragment with a full stop ("I would like to know the."), so a trailing word wins over
 * a full stop (not over a question mark: "What is it for?" is over); a filler wins over everything.
 */
export function turnEnding(words: string, language = 'en'): TurnEnding {
  const { trailing, fillers } = trailingWordsOf(language);
  const tail = words.slice(-TAIL_CHARS).trim();
  if (!tail) return 'unsure';
  // A dash, a comma or dots (an ellipsis) mean more is coming.
  if (/(?:[,;:\-–—]|\.\.+|…)["'”’)\]]*$/u.test(tail)) return 'trailing';
  const last =
    tail
      .match(/([\p{L}']+)[^\p{L}']*$/u)?.[1]
      ?.toLowerCase()
      .replace(/'/g, '') ?? '';
  if (fillers.has(last)) return 'trailing';
  if (/[?!？！]["'”’)\]]*$/u.test(tail)) return 'sentence-end';
  if (trailing.has(last)) return 'trailing';
  if (/[.。]["'”’)\]]*$/u.test(tail)) return 'sentence-end';
  return 'unsure';
}

/** The pause (ms) that ends a turn whose words so far are these. */
export function pauseToEndTurn(words: string, language = 'en'): number {
  const ending = turnEnding(words, language);
  return ending === 'sentence-end' ? SENTENCE_END_MS : ending === 'trailing' ? TRAILING_MS : UNSURE_MS;
}
