// Mouth shapes for what is said: from eSpeak's phonemes (the local voice reports them with their timing:
// the native bridge as eSpeak mnemonics, the WebAssembly build as IPA), or, where a provider gives no
// phonemes, from the letters of the text.
import type { Viseme } from '../../../protocol/visemes.js';

/** The viseme of an eSpeak phoneme mnemonic (stress marks and length marks ignored). */
export function visemeOfPhoneme(mnemonic: string): Viseme {
  const p = mnemonic.replace(/['",%=:]/g, '');
  if (!p || p.startsWith('_')) return 'rest';
  if (/^(tS|dZ)/.test(p)) return 'S';
  if (/^(aU|oU|OI)/.test(p)) return 'O';
  if (/^aI/.test(p)) return 'A';
  if (/^eI/.test(p)) return 'E';
  return visemeOfSound(p[0]!);
}

/** The viseme of an IPA phoneme as the WebAssembly eSpeak reports it ("ˈoʊ", "tʃ", "" for a pause). */
export function visemeOfIpa(ipa: string): Viseme {
  const p = ipa.normalize('NFC').replace(/[ˈˌːˑ\u0361\u035c\u0303\u0329-]/g, '');
  if (!p || p.startsWith('_')) return 'rest';
  if (/^(tʃ|dʒ|ts|dz)/.test(p)) return 'S';
  if (/^(aʊ|oʊ|əʊ|ɔɪ)/.test(p)) return 'O';
  if (/^aɪ/.test(p)) return 'A';
  if (/^eɪ/.test(p)) return 'E';
  return visemeOfIpaSound([...p][0]!);
}

/**
 * Whether a phoneme (an eSpeak mnemonic or IPA) is an h: a sound of the throat with no mouth shape of its
 * own, said with the mouth already in the shape of the vowel after it. Shown as its own shape (teeth
 * together), "Hello" kept the mouth closed through its h, audible 60-80 ms before the e.
 */
export function leadsIn(phoneme: string): boolean {
  return /^[hɦ]$/.test(phoneme.replace(/['",%=:ˈˌːˑ]/g, ''));
}

const VOWEL_SHAPES: ReadonlySet<Viseme> = new Set(['A', 'E', 'I', 'O', 'U']);

/** The shape of a sound that leads in (an h, its own shape `own`) before a sound of shape `next`: the vowel's, or its own. */
export function leadInShape(own: Viseme, next: Viseme): Viseme {
  return VOWEL_SHAPES.has(next) ? next : own;
}

/**
 * An engine's mouth shapes as it reports them, in order: each mark from its `atMs` on, an h's (`leadsIn`) given
 * the shape of the vowel reported after it (leadInShape).
 */
export class VisemeMarks {
  readonly marks: Array<{ atMs: number; viseme: Viseme }> = [];
  /** The last mark, while it is an h's. */
  #leadIn: { atMs: number; viseme: Viseme } | null = null;

  add(event: { atMs: number; viseme: Viseme; leadsIn?: boolean }): void {
    if (this.#leadIn) this.#leadIn.viseme = leadInShape(this.#leadIn.viseme, event.viseme);
    const mark = { atMs: event.atMs, viseme: event.viseme };
    this.marks.push(mark);
    this.#leadIn = event.leadsIn ? mark : null;
  }
}

const IPA_SOUNDS: ReadonlyArray<readonly [string, Viseme]> = [
  ['aɑɐæʌɶ', 'A'],
  ['eɛəɜɝɚœø', 'E'],
  ['iɪjyʏɨᵻ', 'I'],
  ['oɔɒɵ', 'O'],
  ['uʊwɯʉɥᵿ', 'U'],
  ['mbpɱɓ', 'M'],
  ['fvʋ', 'F'],
  ['tdnlθðɾɫɬɮʈɖɳɭ', 'L'],
  ['szʃʒkgɡŋhrɹxçcqɟʁχɣʀɕʑʂʐɲɦ', 'S'],
];

function visemeOfIpaSound(c: string): Viseme {
  return visemeIn(IPA_SOUNDS, c);
}

const LETTERS: ReadonlyArray<readonly [string, Viseme]> = [
  ['aá', 'A'],
  ['e', 'E'],
  ['iy', 'I'],
  ['o', 'O'],
  ['uw', 'U'],
  ['mbp', 'M'],
  ['fv', 'F'],
  ['ltdnθ', 'L'],
  ['szcjkgqxhrß', 'S'],
];

/** A rough mouth shape per letter (ASCII and common Latin letters), for text without phoneme timing. */
export function visemeOfLetter(letter: string): Viseme {
  const l = letter.toLowerCase().normalize('NFD')[0] ?? '';
  return visemeIn(LETTERS, l);
}

const ESPEAK_SOUNDS: ReadonlyArray<readonly [string, Viseme]> = [
  ['aAV&', 'A'],
  ['eE3@', 'E'],
  ['iIjy', 'I'],
  ['oO0Q', 'O'],
  ['uUwY', 'U'],
  ['mbp', 'M'],
  ['fv', 'F'],
  ['tdnlTDL', 'L'],
  ['szSZkgNhrRxCcqJ', 'S'],
];

function visemeOfSound(c: string): Viseme {
  return visemeIn(ESPEAK_SOUNDS, c);
}

/** Visemes spread over `durationMs` by letter, with the mouth closing between words. */
export function estimatedVisemes(text: string, durationMs: number): Array<{ atMs: number; viseme: Viseme }> {
  const letters = [...text];
  const spoken = letters.filter((c) => /\p{L}/u.test(c)).length || 1;
  const perLetter = durationMs / (spoken + (text.match(/\s+/g)?.length ?? 0) * 0.5);
  const marks: Array<{ atMs: number; viseme: Viseme }> = [];
  let at = 0;
  for (const [i, c] of letters.entries()) {
    if (/\p{L}/u.test(c)) {
      // An h said as one (not in th, sh, ch, ph, gh, wh) leads into the vowel after it.
      const own = visemeOfLetter(c);
      const saidH = c.toLowerCase() === 'h' && !/[tscpgw]/i.test(letters[i - 1] ?? '');
      marks.push({ atMs: at, viseme: saidH && letters[i + 1] ? leadInShape(own, visemeOfLetter(letters[i + 1]!)) : own });
      at += perLetter;
    } else if (/\s/.test(c)) {
      marks.push({ atMs: at, viseme: 'rest' });
      at += perLetter * 0.5;
    }
  }
  return marks;
}

/** Word start times spread over `durationMs` in proportion to their letters. */
export function estimatedWords(text: string, durationMs: number): Array<{ atMs: number; text: string }> {
  const words = text.split(/\s+/).filter(Boolean);
  const total = words.reduce((n, w) => n + w.length + 1, 0) || 1;
  let at = 0;
  return words.map((word) => {
    const mark = { atMs: (at / total) * durationMs, text: word };
    at += word.length + 1;
    return mark;
  });
}

/** The viseme of the first row whose characters hold `c`; 'rest' for none. */
function visemeIn(table: ReadonlyArray<readonly [string, Viseme]>, c: string): Viseme {
  return table.find(([chars]) => chars.includes(c))?.[1] ?? 'rest';
}
