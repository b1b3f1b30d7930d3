// Test stand-ins at the boundaries: a scripted fetch for the public endpoints and an in-memory transport.
import type { InitResponse, StartResponse } from '../../../src/protocol/public.js';
import type { RoomTranscriptEntry } from '../../../src/protocol/room.js';
import { waitFor } from './wait-for.js';
import {
  TransportEndedEvent, TransportMessageEvent, TransportNoticeEvent, TransportParticipantsEvent,
  type JoinOptions, type Transport, type TransportParticipant,
} from '../../../src/palkit/client/transport/transport.js';

export function initBody(overrides: Partial<InitResponse> = {}): InitResponse {
  return {
    deployment_id: 'd123', channel: 'widget', customization: {}, has_password: false,
    limits: { max_call_duration: null, daily_call_limit_per_user: null },
    captcha: null, is_available: true, unavailable_reason: null, ...overrides,
  };
}

export function startBody(overrides: Partial<StartResponse> = {}): StartResponse {
  return {
    conversation_id: 'c42', conversation_name: 'Visitor', conversation_url: 'http://pal.test/rooms/c42',
    status: 'active', created_at: '2025-01-01T00:00:00Z', meeting_token: 'tok', ...overrides,
  };
}

export interface Call { url: string; method: string; body: unknown; authorization: string | null }
type Reply = { status: number; body: unknown; headers?: Record<string, string> } | Error;

/** fetch stand-in: routes by path suffix; records calls. A reply function may delay to test races. */
export function scriptedFetch(routes: Record<string, Reply | (() => Reply | Promise<Reply>)>) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    calls.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined, authorization: new Headers(init?.headers).get('authorization') });
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

export class FakeTransport extends EventTarget implements Transport {
  readonly kind = 'local';
  joined: JoinOptions | null = null;
  left = false;
  sent: unknown[] = [];
  mic = true;
  camera = true;
  textMode = false;
  devices: { audioDeviceId?: string; videoDeviceId?: string } = {};
  failJoin: Error | null = null;
  /** Resolve join later (to test cancel during connecting). */
  holdJoin = false;
  /** The PAL's name as the room lists it, and its face's image. */
  palName = 'PAL';
  palImageUrl: string | null = null;
  /** The conversation so far, as a room sends it on joining. */
  history: RoomTranscriptEntry[] = [];
  #release: (() => void) | null = null;

  get participants(): TransportParticipant[] {
    return [
      { id: 'me', name: 'You', role: 'visitor', local: true, videoTrack: null, audioTrack: null },
      { id: 'pal', name: this.palName, role: 'pal', local: false, videoTrack: null, audioTrack: null, imageUrl: this.palImageUrl },
    ];
  }

  async join(options: JoinOptions): Promise<void> {
    this.joined = options;
    this.textMode = options.textMode === true;
    if (this.failJoin) throw this.failJoin;
    if (this.holdJoin) await new Promise<void>((resolve) => (this.#release = resolve));
    this.dispatchEvent(new TransportParticipantsEvent());
  }

  releaseJoin(): void {
    this.#release?.();
  }

  async leave(): Promise<void> {
    this.left = true;
    this.#release?.();
  }

  sendAppMessage(data: unknown): void {
    this.sent.push(data);
  }

  setMicrophoneEnabled(enabled: boolean): void {
    this.mic = enabled;
  }

  setCameraEnabled(enabled: boolean): void {
    this.camera = enabled;
  }

  setTextMode(on: boolean): void {
    this.textMode = on;
  }

  /** The room says something the visitor should know (e.g. the microphone could not be opened). */
  notice(code: string): void {
    this.dispatchEvent(new TransportNoticeEvent(code, ''));
  }

  async setInputDevices(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void> {
    this.devices = devices;
  }

  receive(data: unknown): void {
    this.dispatchEvent(new TransportMessageEvent(data, 'pal'));
  }

  endFromRoom(failed = false): void {
    this.dispatchEvent(new TransportEndedEvent('ended', failed));
  }
}

export const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the predicate holds (test/browser/helpers/wait-for.ts, probing every 10 ms), failing after
 * `seconds` (eight unless told): one second was enough for one engine alone; three were not for Firefox on
 * a busy two-core machine, where switching to a tab to send it a key alone took 2.5 s.
 */
export async function until(predicate: () => boolean, what = 'condition', seconds = 8): Promise<void> {
  await waitFor(predicate, { timeout: seconds * 1000, what });
}
