// One client for every OpenAI-compatible endpoint the service calls (chat, embeddings, speech,
// transcription): the base-URL rule, the key, the time and size limits of each capability, and the
// provider's error bodies are handled here once. The key goes only to the configured host (redirects
// are not followed) and never into an error message, which callers log and store.
import { scrubText } from '../../platform/log.js';
import type { GuardedFetch } from '../../platform/net/guarded-fetch.js';
import { clockTimeout, systemClock, type Clock } from '../../platform/time.js';
import { openAiEndpoint } from './base-url.js';

export interface OpenAiEndpointConfig {
  baseUrl: string;
  apiKey?: string | undefined;
}

/** What each capability may take: the whole exchange (a stream included) and the answer's size. */
export const OPENAI_LIMITS = {
  chatStream: { timeoutMs: 120_000, maxBytes: 4 * 1024 * 1024 },
  chat: { timeoutMs: 60_000, maxBytes: 256 * 1024 },
  embeddings: { timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 },
  /** A minute of 24 kHz 16-bit PCM for one sentence. */
  speech: { timeoutMs: 15_000, maxBytes: 24_000 * 2 * 60 },
  transcription: { timeoutMs: 30_000, maxBytes: 256 * 1024 },
} as const;

export type OpenAiCapability = keyof typeof OPENAI_LIMITS;

export type OpenAiFailure = 'unreachable' | 'timeout' | 'status' | 'malformed';

export class OpenAiError extends Error {
  constructor(
    readonly failure: OpenAiFailure,
    message: string,
    /** The provider's HTTP status, when it answered with one. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface OpenAiRequest {
  /** A JSON body, or a multipart form (transcription). */
  body: unknown;
  signal?: AbortSignal | undefined;
  accept?: string;
}

export class OpenAiClient {
  private readonly deadlines = new WeakMap<Response, AbortSignal>();

  constructor(
    private readonly endpoint: OpenAiEndpointConfig,
    private readonly fetch: GuardedFetch,
    /** How errors name the provider, e.g. "speech provider". */
    readonly label: string,
    /** Tighter limits than OPENAI_LIMITS (tests, or a caller that must answer sooner). */
    private readonly limits: Partial<Record<OpenAiCapability, { timeoutMs: number; maxBytes: number }>> = {},
    /** Times each exchange's limit: the wall clock unless a test gives its own (give the fetch the same one). */
    private readonly clock: Clock = systemClock,
  ) {}

  /** POSTs to `path` (relative to the version root, e.g. "chat/completions"); resolves with a 2xx response that has a body. */
  async post(path: string, capability: OpenAiCapability, request: OpenAiRequest): Promise<Response & { body: ReadableStream<Uint8Array> }> {
    const { apiKey } = this.endpoint;
    const form = request.body instanceof FormData ? request.body : null;
    const headers: Record<string, string> = {
      ...(form ? {} : { 'content-type': 'application/json' }),
      ...(request.accept ? { accept: request.accept } : {}),
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    };
    const { timeoutMs, maxBytes } = this.limits[capability] ?? OPENAI_LIMITS[capability];
    // Our own deadline (not only the fetch's) so that a stream cut by it is told apart from a broken one.
    const deadline = clockTimeout(this.clock, timeoutMs);
    let response: Response;
    try {
      response = await this.fetch(openAiEndpoint(this.endpoint.baseUrl, path), {
        method: 'POST',
        headers,
        body: form ?? JSON.stringify(request.body),
        redirect: 'manual',
        timeoutMs,
        maxBytes,
        signal: request.signal ? AbortSignal.any([request.signal, deadline]) : deadline,
      });
    } catch (error) {
      throw this.failed(error, request.signal, deadline);
    }
    this.deadlines.set(response, deadline);
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new OpenAiError(
        'status',
        `${this.label} answered ${response.status} (a redirect, not followed: the key stays with the configured host)`,
        response.status,
      );
    }
    if (!response.ok || !response.body) {
      const detail = await errorDetail(response);
      throw new OpenAiError(
        'status',
        this.redact(`${this.label} answered ${response.status}${detail ? `: ${detail}` : ''}`),
        response.status,
      );
    }
    return response as Response & { body: ReadableStream<Uint8Array> };
  }

  /** POSTs and reads the JSON answer. */
  async postJson(path: string, capability: OpenAiCapability, request: OpenAiRequest): Promise<unknown> {
    const response = await this.post(path, capability, request);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.failed(error, request.signal, this.deadlines.get(response));
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new OpenAiError('malformed', `${this.label} answered with something other than JSON`);
    }
  }

  /** The bytes of an answer as they arrive; a broken or timed-out stream becomes an OpenAiError. */
  async *chunks(response: Response & { body: ReadableStream<Uint8Array> }, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) yield chunk;
    } catch (error) {
      throw this.failed(error, signal, this.deadlines.get(response));
    }
  }

  /** A failure of the exchange itself. The caller's own abort passes through as it is (it is not the provider's fault). */
  private failed(error: unknown, signal: AbortSignal | undefined, deadline: AbortSignal | undefined): unknown {
    if (signal?.aborted) return error;
    if (error instanceof OpenAiError) return error;
    if (deadline?.aborted) return new OpenAiError('timeout', `${this.label} did not answer in time`);
    const reason = error instanceof Error ? error.message : String(error);
    return new OpenAiError('unreachable', this.redact(`${this.label} unreachable: ${reason}`));
  }

  /** Providers quote the key they were given ("Incorrect API key provided: sk-…"); it never leaves here. */
  redact(message: string): string {
    const { apiKey } = this.endpoint;
    const withoutKey = apiKey && apiKey.length >= 4 ? message.split(apiKey).join('[redacted]') : message;
    // Also what looks like a key (a masked "sk-ab***yz" echo of it) and credentials in URLs.
    return scrubText(withoutKey.replace(/\b(sk|rk|pk)-[A-Za-z0-9_*.-]{6,}/g, '[redacted]'));
  }
}

/** The provider's own words from an error answer: OpenAI's `{error: {message}}`, or `{error}` / `{message}` / `{detail}` strings. */
async function errorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let message: unknown;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = body.error;
    message =
      typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : (error ?? body.message ?? body.detail);
  } catch {
    message = undefined;
  }
  // Only the short text a provider means for people; an HTML error page or a stack says nothing useful.
  return typeof message === 'string' ? message.replace(/\s+/g, ' ').trim().slice(0, 300) : '';
}
