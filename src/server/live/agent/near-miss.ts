// Whether a question asks about something next to what the PAL knows rather than about it: "Do you sell
// e-bikes?" when the knowledge only speaks of bikes, "a store in Madrid" when the stores are in Lisbon,
// "a warranty on batteries" when only frames have one. The nearest sentence would then be offered as
// a yes; the PAL must say instead that its knowledge does not cover the question.
//
// `missing` are the question's topic terms (stemmed) that no sentence of the knowledge contains,
// `covered` the ones some sentence does.

/** Verbs that only say "is it available" — the object after them is what the question is about. */
const OFFER =
  /\b(?:do|does|can|could)\s+(?:you|they|we|i|one)\s+(?:also\s+)?(sell|offer|have|carry|stock|provide|make|build|rent|lease|repair|fix|service|ship|deliver|accept|take|buy|sell|install|insure|finance)\s+(?:any\s+|a\s+|an\s+|the\s+|some\s+|your\s+)?([\p{L}\p{N}-]+)/iu;
const OFFER_DE =
  /\b(?:verkaufen|haben|bieten|führen|reparieren|vermieten|liefern|gibt)\s+(?:sie|ihr|es)\s+(?:auch\s+)?(?:ein(?:e[nms]?)?\s+|den\s+|die\s+|das\s+)?([\p{L}\p{N}-]+)/iu;
// "Vendez-vous des vélos électriques ?", "¿Venden bicicletas eléctricas?": the thing and the word after it
// (French, Spanish, Italian, Portuguese and Dutch put the adjective that narrows a thing after it).
const OFFER_AFTER = new RegExp(
  String.raw`(?<![\p{L}])(?:(?:vendez|avez|proposez|louez|réparez|livrez|faites)-vous|(?:venden|tienen|ofrecen|alquilan|reparan|hacen)(?:\s+ustedes)?|(?:vendete|avete|offrite|noleggiate|riparate)|(?:vendem|têm|oferecem|alugam|reparam)|(?:verkopen|hebben|bieden|verhuren|repareren)\s+(?:jullie|u))` +
    String.raw`\s+(?:aussi\s+|también\s+|anche\s+|também\s+|ook\s+)?(?:(?:des|de|du|la|le|les|l'|un|une|d'|unos|unas|una|uno|el|los|las|dei|delle|degli|gli|il|lo|i|um|uma|uns|umas|o|a|os|as|een|de|het)\s*)?([\p{L}\p{N}-]+)(?:\s+([\p{L}\p{N}-]+))?`,
  'iu',
);
/** Verbs of the OFFER pattern that say nothing of their own: their absence from the knowledge says nothing. */
const GENERIC_VERB = /^(?:have|take|make|offer|sell|provide|carry|accept)$/i;
/** A word after one of these narrows what it follows to a place, a thing or a group. */
const QUALIFIER =
  /\b(?:in|to|on|for|at|from|near|into|auf|für|nach|in|im|bei|aus|sur|pour|à|en|para|por|per|su|voor|naar|op)\s+(?:the\s+|a\s+|an\s+|my\s+|your\s+|den\s+|die\s+|das\s+|dem\s+|der\s+|einen?\s+|la\s+|le\s+|les\s+|el\s+|los\s+|las\s+|de\s+|het\s+)?([\p{L}\p{N}-]+)/giu;

export interface NearMissInput {
  question: string;
  missing: ReadonlySet<string>;
  covered: readonly string[];
  /** Maps a word of the question to the term it counts as (the same stemming as the knowledge). */
  termOf(word: string): string | undefined;
  /** The reply language: German capitalises every noun, so capitals say nothing there. */
  lang?: string;
}

/** How a question reaches past the knowledge: a narrower thing, an offer, a place or group it names, a name. */
export type PastKnowledge = 'compound' | 'offer' | 'qualifier' | 'name';

/** How the question reaches past the knowledge on one of its named points, or false when it does not. */
export function asksPastKnowledge(input: NearMissInput): PastKnowledge | false {
  const { question, missing, covered, termOf } = input;
  if (!missing.size) return false;
  const isMissing = (word: string | undefined) => {
    const t = word === undefined ? undefined : termOf(word);
    return t !== undefined && missing.has(t);
  };
  // A compound around a known term: e-bike, mountainbike, kids bike (a narrower thing than the known one).
  for (const m of missing) if (covered.some((c) => c.length >= 3 && m !== c && (m.endsWith(c) || m.startsWith(c)))) return 'compound';
  // What "do you sell/have/offer …" asks for, or a service verb the knowledge never names ("do you rent bikes?").
  const offer = OFFER.exec(question);
  if (offer && (isMissing(offer[2]) || (!GENERIC_VERB.test(offer[1]!) && isMissing(offer[1])))) return 'offer';
  const offerDe = OFFER_DE.exec(question);
  if (offerDe && isMissing(offerDe[1])) return 'offer';
  const offerAfter = OFFER_AFTER.exec(question);
  if (offerAfter && (isMissing(offerAfter[1]) || isMissing(offerAfter[2]))) return 'offer';
  // "… in Madrid", "… to the United States", "a warranty on batteries".
  for (const q of question.matchAll(QUALIFIER)) if (isMissing(q[1])) return 'qualifier';
  // A name the knowledge never mentions (not the question's first word; German capitalises all nouns).
  if (input.lang !== 'de') {
    const words = question.match(/[\p{L}\p{N}-]+/gu) ?? [];
    for (const w of words.slice(1)) if (/^\p{Lu}\p{Ll}/u.test(w) && w !== 'I' && isMissing(w)) return 'name';
  }
  return false;
}
