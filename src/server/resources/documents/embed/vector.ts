// Vector helpers shared by the embedders.

/** Dimensions of every stored vector (the `vector(256)` column). */
export const EMBEDDING_DIMENSIONS = 256;

export function normalise(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0));
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}

/** Fits a vector to EMBEDDING_DIMENSIONS: longer ones are cut (the Matryoshka property of current
 * embedding models makes a prefix a valid embedding), shorter ones padded with zeros; then normalised. */
export function fitDimensions(vector: number[]): number[] {
  const fitted =
    vector.length >= EMBEDDING_DIMENSIONS
      ? vector.slice(0, EMBEDDING_DIMENSIONS)
      : [...vector, ...new Array<number>(EMBEDDING_DIMENSIONS - vector.length).fill(0)];
  return normalise(fitted);
}
