// A deterministic local embedder that needs no model: signed feature hashing of words (with a light
// stem), word pairs and character trigrams into 256 dimensions, log-scaled counts, L2-normalised.
// It rewards shared vocabulary (a good lexical retriever), not paraphrase.
import type { Embedder } from './embedder.js';
import { EMBEDDING_DIMENSIONS, normalise } from './vector.js';

const STOPWORDS = new Set(
  'a an and are as at be but by can do does for from has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to was we what when where which who why will with you your'.split(' '),
);

/** FNV-1a, 32 bit. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function stem(word: string): string {
  return word.replace(/(?:ing|edly|ed|ies|es|s|ly)$/u, (suffix) => (word.length - suffix.length >= 3 ? (suffix === 'ies' ? 'y' : '') : suffix));
}

export function tokens(text: string): string[] {
  return (text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w)).map(stem);
}

export class HashedEmbedder implements Embedder {
  readonly id = 'hashed-v1';

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): number[] {
    const counts = new Map<number, number>();
    const add = (feature: string, weight: number) => {
      const h = hash(feature);
      const index = h % EMBEDDING_DIMENSIONS;
      const sign = h & 0x80000000 ? -1 : 1;
      counts.set(index, (counts.get(index) ?? 0) + sign * weight);
    };
    const words = tokens(text);
    words.forEach((word, i) => {
      add(`w:${word}`, 1);
      if (i > 0) add(`b:${words[i - 1]} ${word}`, 0.5);
      const padded = ` ${word} `;
      for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, 0.25);
    });
    const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
    // Sub-linear term frequency keeps one repeated word from dominating a chunk.
    for (const [index, value] of counts) vector[index] = Math.sign(value) * Math.log1p(Math.abs(value));
    return normalise(vector);
  }
}
