// Mouth shapes a face shows while the PAL speaks. The service derives them from the synthesiser's phoneme
// timing and sends one with every slice of PAL audio (see room.ts); faces draw one shape per viseme.
export const VISEMES = [
  'rest', // closed, relaxed: silence
  'A', // wide open: a, ah, aɪ
  'E', // mid open, spread: e, ɛ, æ
  'I', // narrow, spread: i, ɪ, j
  'O', // round open: o, ɔ, aʊ
  'U', // small round: u, ʊ, w
  'M', // lips pressed: m, b, p
  'F', // lower lip to teeth: f, v
  'L', // tongue up, slightly open: l, n, t, d, θ, ð
  'S', // teeth together: s, z, ʃ, tʃ, dʒ, k, g, h, r
] as const;

export type Viseme = (typeof VISEMES)[number];

/** The viseme's index on the wire (one byte). */
export function visemeIndex(viseme: Viseme): number {
  return VISEMES.indexOf(viseme);
}

/** The viseme at a wire index; unknown indexes read as rest. */
export function visemeAt(index: number): Viseme {
  return VISEMES[index] ?? 'rest';
}
