// Client for the public endpoints the elements call (no API key): deployment init and start, and
// Magic Canvas interactions. Responses are checked against the protocol schemas (their JSON Schemas, so
// zod is not loaded before a call); every failure becomes a PalClientError.
import type { CanvasInteractionBody } from '../../protocol/canvas-interaction.js';
import { checkShape, type JsonShape } from '../../protocol/check-shape.js';
import type { ErrorBody, GateBody, GatePass, InitResponse, StartBody, StartErrorCode, StartResponse } from '../../protocol/public.js';
import type { RatingBody, RatingResponse } from '../../protocol/rating.js';
import { responseShapes as shapes } from '../../protocol/response-shapes.js';
import { PalClientError, type PalErrorCode } from './errors.js';
import { visitorKey } from './visitor-key.js';

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
    return this.#request<InitResponse>(`/v2/deployments/${encodeURIComponent(deploymentId)}/init`, shapes.InitResponse, {
      method: 'GET',
      signal,
    });
  }

  start(deploymentId: string, body: StartBody, signal?: AbortSignal): Promise<StartResponse> {
    return this.#request<StartResponse>(`/v2/deployments/${encodeURIComponent(deploymentId)}/start`, shapes.StartResponse, {
      method: 'POST',
      body: JSON.stringify({ visitor_key: visitorKey(), ...body }),
      headers: { 'content-type': 'application/json' },
      signal,
    });
  }

  /** The password step: checks the password (and captcha token) and answers a pass for start. */
  passGate(deploymentId: string, body: GateBody, signal?: AbortSignal): Promise<GatePass> {
    return this.#request<GatePass>(`/v2/deployments/${encodeURIComponent(deploymentId)}/gate`, shapes.GatePass, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      signal,
    });
  }

  async postCanvasInteraction(conversationId: string, body: CanvasInteractionBody, signal?: AbortSignal): Promise<void> {
    await this.#request(`/v2/conversations/${encodeURIComponent(conversationId)}/canvas/interactions`, shapes.CanvasInteractionRecorded, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      signal,
    });
  }

  /** The visitor's rating after the call, authorised by their meeting token. */
  rate(conversationId: string, meetingToken: string, body: RatingBody, signal?: AbortSignal): Promise<RatingResponse> {
    return this.#request<RatingResponse>(`/v2/conversations/${encodeURIComponent(conversationId)}/rating`, shapes.RatingResponse, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${meetingToken}` },
      signal,
    });
  }

  async #request<T>(path: string, shape: JsonShape, init: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await this.#fetch(this.apiBase + path, { ...init, credentials: 'omit' });
    } catch (error) {
      if (init.signal?.aborted) throw new PalClientError('aborted', 'Cancelled.');
      throw new PalClientError(
        'network_error',
        `Could not reach the service (${error instanceof Error ? error.message : 'network error'}).`,
      );
    }
    const json = await readJson(response);
    if (!response.ok) throw errorFromResponse(response, json);
    if (json === undefined)
      throw new PalClientError('bad_response', 'The service answered with something that is not JSON.', response.status);
    const parsed = checkShape<T>(shape, json);
    if (!parsed.ok) throw new PalClientError('bad_response', 'The service answered in an unexpected shape.', response.status);
    return parsed.value;
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
  const body = checkShape<ErrorBody>(shapes.ErrorBody, json);
  const text = body.ok ? ('error' in body.value ? body.value.error : body.value.message) : '';
  // Codes look like `busy` or `invalid_request: name is required`.
  const head = text.split(':')[0]?.trim() ?? '';
  const known = checkShape<StartErrorCode>(shapes.StartErrorCode, head);
  let code: PalErrorCode;
  if (known.ok) code = known.value;
  else if (head === 'conversation_ended' || response.status === 410) code = 'conversation_ended';
  else if (response.status === 429) code = 'rate_limited';
  else code = 'http_error';
  return new PalClientError(code, text || `The service answered ${response.status}.`, response.status, retryAfter);
}
