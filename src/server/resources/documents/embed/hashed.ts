// A deterministic local embedder that needs no model: signed feature hashing of words (with a light
// stem), word pairs and character trigrams into 256 dimensions, log-scaled counts, L2-normalised.
// It rewards shared vocabulary (a good lexical retriever), not paraphrase.
import type { Embedder } from './types.js';
import { EMBEDDING_DIMENSIONS, normalise } from './vector.js';

const STOPWORDS = new Set(
  'a about all also am an and any are as at be been being but by can could did do does for from get got had has have he her here his how i if in into is it its just may me might more most must my no not of on or our per she should so some than that the their them then there these they this those to us very was we were what when where which who why will with would you your'.split(
    ' ',
  ),
);

const SPREAD = 3;

/** FNV-1a, 32 bit, with MurmurHash3's finaliser for avalanche (similar strings land far apart). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function stem(word: string): string {
  return word.replace(/(?:ing|edly|ed|ies|es|s|ly)$/u, (suffix) =>
    word.length - suffix.length >= 3 ? (suffix === 'ies' ? 'y' : '') : suffix,
  );
}

export function tokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);
}

export class HashedEmbedder implements Embedder {
  readonly id = 'hashed-v1';

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): number[] {
    const features = new Map<string, { count: number; weight: number }>();
    const add = (feature: string, weight: number) => {
      const f = features.get(feature);
      if (f) f.count++;
      else features.set(feature, { count: 1, weight });
    };
    const words = tokens(text);
    words.forEach((word, i) => {
      add(`w:${word}`, 1);
      if (i > 0) add(`b:${words[i - 1]} ${word}`, 0.4);
      const padded = ` ${word} `;
      for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, 0.12);
    });
    const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
    for (const [feature, { count, weight }] of features) {
      // Strongly sub-linear term frequency: repeated boilerplate must not drown the one word that matters.
      const value = (weight * Math.pow(count, 0.35)) / Math.sqrt(SPREAD);
      // Each feature lands in SPREAD buckets with independent signs: a chance collision then moves a
      // score by a fraction of what one shared bucket would.
      for (let k = 0; k < SPREAD; k++) {
        const h = hash(`${k}${feature}`);
        vector[h % EMBEDDING_DIMENSIONS]! += (h & 0x80000000 ? -1 : 1) * value;
      }
    }
    return normalise(vector);
  }
}
