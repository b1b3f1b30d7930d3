// Embeddings from an OpenAI-compatible server (`POST {base}/v1/embeddings`), through the guarded fetch,
// in batches, asking for EMBEDDING_DIMENSIONS dimensions (servers that ignore it get their vectors fitted).
import type { GuardedFetch } from '../../../platform/net/guarded-fetch.js';
import { DocumentError } from '../errors.js';
import type { Embedder } from './types.js';
import { EMBEDDING_DIMENSIONS, fitDimensions } from './vector.js';

const BATCH = 64;

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  private readonly url: string;

  constructor(private readonly options: { baseUrl: string; apiKey: string | undefined; model: string; fetch: GuardedFetch }) {
    this.id = `openai:${options.model}`;
    // Accept both "https://host" and "https://host/v1" as the base.
    this.url = /\/v1$/.test(options.baseUrl) ? `${options.baseUrl}/embeddings` : `${options.baseUrl}/v1/embeddings`;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) out.push(...(await this.batch(texts.slice(i, i + BATCH), signal)));
    return out;
  }

  private async batch(input: string[], signal?: AbortSignal): Promise<number[][]> {
    let response: Response;
    try {
      response = await this.options.fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.options.model, input, dimensions: EMBEDDING_DIMENSIONS, encoding_format: 'float' }),
        timeoutMs: 60_000,
        maxBytes: 64 * 1024 * 1024,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new DocumentError('embedding_failed', `embeddings endpoint unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new DocumentError('embedding_failed', `embeddings endpoint answered ${response.status}`);
    }
    const body = (await response.json().catch(() => null)) as { data?: Array<{ index?: number; embedding?: unknown }> } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== input.length) throw new DocumentError('embedding_failed', 'embeddings endpoint returned an unexpected body');
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((d) => {
      if (!Array.isArray(d.embedding) || d.embedding.length === 0 || !d.embedding.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        throw new DocumentError('embedding_failed', 'embeddings endpoint returned a malformed vector');
      }
      return fitDimensions(d.embedding as number[]);
    });
  }
}
