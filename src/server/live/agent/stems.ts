// Words as answers without a language model compare them: the stem of a word in the reply language
// (Snowball's algorithm for it: helmets → helmet, Lieferungen → liefer, бесплатно → бесплатн). The
// phrasings rewritten before the words are cut are in phrasings.ts, the words of one meaning in synonyms.ts.
import snowball from 'snowball-stemmers';

const ALGORITHMS: Record<string, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  nl: 'dutch',
  sv: 'swedish',
  da: 'danish',
  nb: 'norwegian',
  no: 'norwegian',
  fi: 'finnish',
  cs: 'czech',
  ru: 'russian',
  tr: 'turkish',
};

const stemmers = new Map<string, (word: string) => string>();

/** The stemmer of `lang` (its primary subtag); languages Snowball has none for keep a light suffix cut. */
export function stemmerFor(lang: string): (word: string) => string {
  const primary = lang.toLowerCase().split(/[-_]/)[0] ?? 'en';
  let stemmer = stemmers.get(primary);
  if (!stemmer) {
    const algorithm = ALGORITHMS[primary];
    const snow = algorithm ? snowball.newStemmer(algorithm) : null;
    // Short words are names and codes more often than inflected forms (S, XL, EU, Porto stays Porto).
    stemmer = snow ? (word) => (word.length <= 3 || /\d/.test(word) ? word : snow.stem(word)) : lightStem;
    stemmers.set(primary, stemmer);
  }
  return stemmer;
}

/** Polish, Ukrainian and the languages written without inflection endings: common endings only. */
function lightStem(word: string): string {
  if (word.length <= 4) return word;
  const cut = /(?:ami|ach|ów|om|ie|ego|emu|ymi|ych|ій|ів|ами|ах|ою|ей|ам|і|и|а|у|ю|я|е|ы|o|a|y|i|e)$/u.exec(word);
  return cut && word.length - cut[0].length >= 4 ? word.slice(0, -cut[0].length) : word;
}
