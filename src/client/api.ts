// Client for the public endpoints the elements call (no API key): deployment init and start, and
// Magic Canvas interactions. Responses are validated; every failure becomes a PalClientError.
import * as z from 'zod/mini';
import { CanvasInteractionRecorded, type CanvasInteractionBody } from '../protocol/canvas-interaction.js';
import { ErrorBody, GatePass, InitResponse, StartErrorCode, StartResponse, type GateBody, type StartBody } from '../protocol/public.js';
import { RatingResponse, type RatingBody } from '../protocol/rating.js';
import { PalClientError, type PalErrorCode } from './errors.js';

export interface ApiClientOptions {
  /** Base of the service, e.g. `https://pal.example.com`; paths are appended. */
  apiBase: string;
  fetch?: typeof fetch;
}

export class ApiClient {
  readonly apiBase: string;
  readonly #fetch: typeof fetch;

  constructor(options: ApiClientOptions) {
    this.apiBase = options.apiBase.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  init(deploymentId: string, signal?: AbortSignal): Promise<InitResponse> {
    return this.#request(`/v2/deployments/${encodeURIComponent(deploymentId)}/init`, InitResponse, { method: 'GET', signal });
  }

  start(deploymentId: string, body: StartBody, signal?: AbortSignal): Promise<StartResponse> {
    return this.#request(`/v2/deployments/${encodeURIComponent(deploymentId)}/start`, StartResponse, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal,
    });
  }

  /** The password step: checks the password (and captcha token) and answers a pass for start. */
  passGate(deploymentId: string, body: GateBody, signal?: AbortSignal): Promise<GatePass> {
    return this.#request(`/v2/deployments/${encodeURIComponent(deploymentId)}/gate`, GatePass, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal,
    });
  }

  async postCanvasInteraction(conversationId: string, body: CanvasInteractionBody, signal?: AbortSignal): Promise<void> {
    await this.#request(`/v2/conversations/${encodeURIComponent(conversationId)}/canvas/interactions`, CanvasInteractionRecorded, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal,
    });
  }

  /** The visitor's rating after the call, authorised by their meeting token. */
  rate(conversationId: string, meetingToken: string, body: RatingBody, signal?: AbortSignal): Promise<RatingResponse> {
    return this.#request(`/v2/conversations/${encodeURIComponent(conversationId)}/rating`, RatingResponse, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${meetingToken}` }, signal,
    });
  }

  async #request<T>(path: string, schema: z.ZodMiniType<T>, init: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await this.#fetch(this.apiBase + path, { ...init, credentials: 'omit' });
    } catch (error) {
      if (init.signal?.aborted) throw new PalClientError('aborted', 'Cancelled.');
      throw new PalClientError('network_error', `Could not reach the service (${error instanceof Error ? error.message : 'network error'}).`);
    }
    const json = await readJson(response);
    if (!response.ok) throw errorFromResponse(response, json);
    if (json === undefined) throw new PalClientError('bad_response', 'The service answered with something that is not JSON.', response.status);
    const parsed = z.safeParse(schema, json);
    if (!parsed.success) throw new PalClientError('bad_response', 'The service answered in an unexpected shape.', response.status);
    return parsed.data;
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function errorFromResponse(response: Response, json: unknown): PalClientError {
  const retryAfter = Number(response.headers.get('retry-after')) || undefined;
  const body = z.safeParse(ErrorBody, json);
  const text = body.success ? ('error' in body.data ? body.data.error : body.data.message) : '';
  // Codes look like `busy` or `invalid_request: name is required`.
  const head = text.split(':')[0]?.trim() ?? '';
  const known = z.safeParse(StartErrorCode, head);
  let code: PalErrorCode;
  if (known.success) code = known.data;
  else if (head === 'conversation_ended' || response.status === 410) code = 'conversation_ended';
  else if (response.status === 429) code = 'rate_limited';
  else code = 'http_error';
  return new PalClientError(code, text || `The service answered ${response.status}.`, response.status, retryAfter);
}
