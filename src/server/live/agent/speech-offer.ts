// A line the PAL says where it cannot hear the visitor (no recogniser here, none in their browser) must
// not invite them to speak: an owner's greeting such as 'Ask me anything, or say "help me choose"'
// becomes '… or type "help me choose"'. Only an invitation to say given words (a quote follows) or to
// speak or talk to the PAL is rewritten; everything else of the owner's line stays as written.

const QUOTE = String.raw`(?=\s*["“„«‘'‚「『])`;

type Rewrite = [RegExp, (found: string) => string];
const cap = (upper: string, lower: string) => (found: string) => (/^\p{Lu}/u.test(found) ? upper : lower);
const quoted = (words: string) => new RegExp(String.raw`(?<![\p{L}])(?:${words})${QUOTE}`, 'gu');

// Per language (the greeting's): say "…" → type "…", speak/talk to me → write to me.
const OFFERS: Record<string, Rewrite[]> = {
  en: [
    [quoted('[Ss]ay'), (m) => (m[0] === 'S' ? 'Type' : 'type')],
    [/(?<![\p{L}])([Ss]peak|[Tt]alk)(?= (?:to|with) me(?![\p{L}]))/gu, (m) => (/^\p{Lu}/u.test(m) ? 'Write' : 'write')],
  ],
  de: [
    [quoted('[Ss]agen Sie'), cap('Schreiben Sie', 'schreiben Sie')],
    [quoted('[Ss]age?'), cap('Schreib', 'schreib')],
    [/(?<![\p{L}])[Ss]prechen Sie mich an(?![\p{L}])/gu, cap('Schreiben Sie mir', 'schreiben Sie mir')],
  ],
  fr: [
    [quoted('[Dd]ites'), cap('Écrivez', 'écrivez')],
    [quoted('[Dd]is'), cap('Écris', 'écris')],
  ],
  es: [[quoted('[Dd]iga'), cap('Escriba', 'escriba')]],
  it: [[quoted('[Dd]ica'), cap('Scriva', 'scriva')]],
  pt: [[quoted('[Dd]iga'), cap('Escreva', 'escreva')]],
  nl: [[quoted('[Zz]eg'), cap('Typ', 'typ')]],
  // 「…」と言ってください / お話しください → 「…」と入力してください.
  ja: [[/(?<=[」』])と(?:言って|おっしゃって|話して|お話し)/gu, () => 'と入力して']],
};

/** Whether `line` (in `lang`) invites the visitor to speak. */
export function offersSpeech(line: string, lang = 'en'): boolean {
  return withoutSpeechOffer(line, lang) !== line;
}

/** `line` (in `lang`) with its invitations to speak turned into invitations to type. */
export function withoutSpeechOffer(line: string, lang = 'en'): string {
  let out = line;
  for (const [re, to] of OFFERS[lang.toLowerCase().split(/[-_]/)[0] ?? 'en'] ?? []) out = out.replace(re, to);
  return out;
}
