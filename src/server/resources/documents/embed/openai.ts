// Embeddings from an OpenAI-compatible server (PALKIT_EMBEDDINGS_*, providers/openai), in batches,
// asking for EMBEDDING_DIMENSIONS dimensions (servers that ignore it get their vectors fitted).
import type { GuardedFetch } from '../../../platform/net/guarded-fetch.js';
import { createEmbeddings, OpenAiClient, OpenAiError } from '../../../providers/openai/index.js';
import { DocumentError } from '../errors.js';
import type { Embedder } from './types.js';
import { EMBEDDING_DIMENSIONS, fitDimensions } from './vector.js';

const BATCH = 64;

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  private readonly client: OpenAiClient;

  constructor(private readonly options: { baseUrl: string; apiKey: string | undefined; model: string; fetch: GuardedFetch }) {
    this.id = `openai:${options.model}`;
    this.client = new OpenAiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey }, options.fetch, 'embeddings endpoint');
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) out.push(...(await this.batch(texts.slice(i, i + BATCH), signal)));
    return out;
  }

  private async batch(input: string[], signal?: AbortSignal): Promise<number[][]> {
    try {
      const vectors = await createEmbeddings(this.client, { model: this.options.model, input, dimensions: EMBEDDING_DIMENSIONS }, signal);
      return vectors.map(fitDimensions);
    } catch (error) {
      throw error instanceof OpenAiError ? new DocumentError('embedding_failed', error.message) : error;
    }
  }
}
