// Sentences of any language, one way for the whole service: the PAL's speech, the sentences its
// knowledge answers pick from, and the pieces long document paragraphs are cut into. Boundaries are
// Unicode's (UAX #29 through ICU's Intl.Segmenter: Japanese and Chinese stops without a space, "3.5",
// "e.g. the" kept whole); abbreviations before a capital or a number ("Dr. Weber", "z.B. 3") are
// joined back, which the segmenter leaves to a locale's exception list that V8 does not apply.

/** The rules do not depend on the locale, so one segmenter serves every language. */
export const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

const ABBREVIATION =
  /(?:^|[\s(])(?:e\.g|i\.e|z\.b|u\.a|d\.h|etc|ca|approx|nr|no|mr|mrs|ms|dr|st|inkl|incl|vs|bzw|evtl|ggf|usw|[a-z])\.\s*$/iu;

/** Whether text ends in an abbreviation's stop (or a single initial), which does not end a sentence. */
export function endsInAbbreviation(text: string): boolean {
  return ABBREVIATION.test(text);
}

/** The sentences of a text, trimmed, in order. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let carry = '';
  for (const { segment } of sentenceSegmenter.segment(text)) {
    carry += segment;
    if (endsInAbbreviation(carry)) continue;
    if (carry.trim()) out.push(carry.trim());
    carry = '';
  }
  if (carry.trim()) out.push(carry.trim());
  return out;
}
