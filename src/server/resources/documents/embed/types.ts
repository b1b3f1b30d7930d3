// What an embedder is, apart from embedder.ts (which picks one), so the embedders never import the module
// that imports them (no import cycle).

export interface Embedder {
  /** Stored with each chunk; only vectors of the same embedder are compared. */
  readonly id: string;
  /** One L2-normalised vector of EMBEDDING_DIMENSIONS per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
