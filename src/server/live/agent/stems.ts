// Words as answers without a language model compare them: the stem of a word in the reply language
// (Snowball's algorithm for it: helmets → helmet, Lieferungen → liefer, бесплатно → бесплатн), and the
// few phrasings visitors use most for a thing the knowledge words otherwise ("no charge", "for free",
// "included" → free; "how much", "cost", "fee" → price), rewritten to one word before the words are cut.
import snowball from 'snowball-stemmers';

const ALGORITHMS: Record<string, string> = {
  en: 'english', de: 'german', fr: 'french', es: 'spanish', it: 'italian', pt: 'portuguese', nl: 'dutch', sv: 'swedish', da: 'danish',
  nb: 'norwegian', no: 'norwegian', fi: 'finnish', cs: 'czech', ru: 'russian', tr: 'turkish',
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

// Phrasings of one meaning, rewritten to the word that stands for it (English, German, French, Spanish,
// Italian, Portuguese, Dutch: the languages most knowledge is written in). Longest first.
const PHRASES: Array<[RegExp, string]> = [
  // When a visitor would do it, not what they ask about: "try a bike before buying", "after ordering".
  [/\b(?:before|after|without) (?:buying|ordering|purchasing|paying|booking)(?: (?:it|one|them))?\b/giu, ' '],
  [/\b(?:free of charge|at no (?:extra |additional )?(?:charge|cost)|for free|no (?:extra |additional )?(?:charge|cost|fee)s?|without (?:any )?(?:extra )?(?:charge|cost)|(?:is|are|comes?) included|complimentary|costs? nothing|doesn'?t cost (?:anything|extra)|don'?t (?:have to )?pay (?:anything|extra)|included in the price)\b/giu, ' free '],
  [/\b(?:pay(?:ing)? (?:extra|more|anything)(?: for)?|(?:be |get |am |is |are )charged(?: extra)?|charged extra|(?:do|does|will|would) (?:you|they|we) charge(?: extra)?|extra (?:cost|charge|fee)s?|additional (?:cost|charge|fee)s?|how much (?:is|are|does|do|will|would)?|what (?:is|are) the (?:price|cost)s?)\b/giu, ' price '],
  [/(?<!\p{L})(?:kostenlos|kostenfrei|gratis|umsonst|inklusive|inbegriffen|ohne aufpreis|ohne zusätzliche kosten|gratuit(?:e|s|es)?|sans frais|offert(?:e|s|es)?|inclus(?:e|es)?|sin coste|sin costo|gratuito|gratuita|incluido|incluida|senza costi|gratuiti|incluso|inclusa|grátis|sem custo|incluído|incluída|gratis|zonder kosten|inbegrepen)(?!\p{L})/giu, ' free '],
  [/(?<!\p{L})(?:wie viel kostet|was kostet|aufpreis|combien coûte|combien|cuánto cuesta|cuánto|quanto costa|quanto custa|hoeveel kost)(?!\p{L})/giu, ' price '],
];

/** `text` with the common phrasings of "free" and "price" rewritten to those words. */
export function paraphrased(text: string): string {
  let out = text;
  for (const [re, word] of PHRASES) out = out.replace(re, word);
  return out;
}

// Words of one meaning after the rewrite: each counts as the first of its group (stemmed per language).
export const SYNONYM_GROUPS: string[][] = [
  ['delivery', 'deliver', 'delivered', 'shipping', 'ship', 'shipment', 'postage', 'dispatch'],
  // What something costs, free included: "is it free?" and "how much is it?" are answered by the same sentence.
  // Not "pay" (how to pay is another question) nor "charge" (a battery's): their money senses are phrases above.
  ['price', 'cost', 'costs', 'fee', 'fees', 'pricing', 'free', 'included', 'includes', 'include',
    'kosten', 'kostet', 'preis', 'gebühr', 'prix', 'coût', 'precio', 'coste', 'prezzo', 'costo', 'preço', 'custo', 'prijs'],
  ['store', 'shop', 'showroom'],
  ['sell', 'sold', 'buy', 'bought', 'purchase'],
  ['test', 'try', 'tried', 'trying'],
  ['return', 'refund'],
  ['warranty', 'guarantee'],
  ['weight', 'heavy', 'weigh'],
  ['lieferung', 'versand', 'liefer'],
  ['rad', 'fahrrad', 'räder', 'fahrräder'],
  ['laden', 'geschäft', 'filiale'],
];
