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

function visemeOfIpaSound(c: string): Viseme {
  if ('aɑɐæʌɶ'.includes(c)) return 'A';
  if ('eɛəɜɝɚœø'.includes(c)) return 'E';
  if ('iɪjyʏɨᵻ'.includes(c)) return 'I';
  if ('oɔɒɵ'.includes(c)) return 'O';
  if ('uʊwɯʉɥᵿ'.includes(c)) return 'U';
  if ('mbpɱɓ'.includes(c)) return 'M';
  if ('fvʋ'.includes(c)) return 'F';
  if ('tdnlθðɾɫɬɮʈɖɳɭ'.includes(c)) return 'L';
  if ('szʃʒkgɡŋhrɹxçcqɟʁχɣʀɕʑʂʐɲɦ'.includes(c)) return 'S';
  return 'rest';
}

/** A rough mouth shape per letter (ASCII and common Latin letters), for text without phoneme timing. */
export function visemeOfLetter(letter: string): Viseme {
  const l = letter.toLowerCase().normalize('NFD')[0] ?? '';
  if ('aá'.includes(l)) return 'A';
  if ('e'.includes(l)) return 'E';
  if ('iy'.includes(l)) return 'I';
  if ('o'.includes(l)) return 'O';
  if ('uw'.includes(l)) return 'U';
  if ('mbp'.includes(l)) return 'M';
  if ('fv'.includes(l)) return 'F';
  if ('ltdnθ'.includes(l)) return 'L';
  if ('szcjkgqxhrß'.includes(l)) return 'S';
  return 'rest';
}

function visemeOfSound(c: string): Viseme {
  if ('aAV&'.includes(c)) return 'A';
  if ('eE3@'.includes(c)) return 'E';
  if ('iIjy'.includes(c)) return 'I';
  if ('oO0Q'.includes(c)) return 'O';
  if ('uUwY'.includes(c)) return 'U';
  if ('mbp'.includes(c)) return 'M';
  if ('fv'.includes(c)) return 'F';
  if ('tdnlTDL'.includes(c)) return 'L';
  if ('szSZkgNhrRxCcqJ'.includes(c)) return 'S';
  return 'rest';
}

/** Visemes spread over `durationMs` by letter, with the mouth closing between words. */
export function estimatedVisemes(text: string, durationMs: number): Array<{ atMs: number; viseme: Viseme }> {
  const letters = [...text];
  const spoken = letters.filter((c) => /\p{L}/u.test(c)).length || 1;
  const perLetter = durationMs / (spoken + (text.match(/\s+/g)?.length ?? 0) * 0.5);
  const marks: Array<{ atMs: number; viseme: Viseme }> = [];
  let at = 0;
  for (const c of letters) {
    if (/\p{L}/u.test(c)) {
      marks.push({ atMs: at, viseme: visemeOfLetter(c) });
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
