// Types for snowball-stemmers (the Snowball algorithms compiled to JavaScript; the package has none).
declare module 'snowball-stemmers' {
  export interface Stemmer {
    stem(word: string): string;
  }
  export function newStemmer(algorithm: string): Stemmer;
  export function algorithms(): string[];
}
