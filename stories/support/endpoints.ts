// The public deployment endpoints' answers, shared by the stories (stand-in.ts answers from scenarios)
// and the browser tests (scriptedFetch answers from routes and records the calls).
import type { InitResponse, StartResponse } from '../../src/protocol/public.js';

/** An available deployment's `/init` answer; `overrides` change any field. */
export function initBody(overrides: Partial<InitResponse> = {}): InitResponse {
  return {
    deployment_id: 'd123',
    channel: 'widget',
    customization: {},
    has_password: false,
    limits: { max_call_duration: null, daily_call_limit_per_user: null },
    captcha: null,
    is_available: true,
    unavailable_reason: null,
    ...overrides,
  };
}

/** A started conversation's `/start` answer; `overrides` change any field. */
export function startBody(overrides: Partial<StartResponse> = {}): StartResponse {
  return {
    conversation_id: 'c42',
    conversation_name: 'Visitor',
    conversation_url: 'http://pal.test/rooms/c42',
    status: 'active',
    created_at: '2025-01-01T00:00:00Z',
    meeting_token: 'tok',
    ...overrides,
  };
}

export interface Call {
  url: string;
  method: string;
  body: unknown;
  authorization: string | null;
}
export type Reply = { status: number; body: unknown; headers?: Record<string, string> } | Error;

/** fetch stand-in: routes by path suffix; records calls. A reply function may delay to test races. */
export function scriptedFetch(routes: Record<string, Reply | (() => Reply | Promise<Reply>)>) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    calls.push({
      url,
      method: init?.method ?? 'GET',
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      authorization: new Headers(init?.headers).get('authorization'),
    });
    const key = Object.keys(routes).find((suffix) => url.endsWith(suffix));
    if (!key) return new Response(JSON.stringify({ error: 'not_found' }), { status: 404 });
    const route = routes[key]!;
    const reply = typeof route === 'function' ? await route() : route;
    if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    if (reply instanceof Error) throw reply;
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(text, { status: reply.status, headers: reply.headers ?? {} });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
