// Daily (daily.co) rooms through its REST API: a private room that expires with the call, and a
// non-owner meeting token for the visitor. Used when PALKIT_DAILY_API_KEY is set.
import type { GuardedFetch } from '../../platform/net/guarded-fetch.js';
import { ProviderError, type ConferencingProvider } from './provider.js';

/** The Daily participant id of a conversation's PAL bot (how Daily's webhooks tell the bot apart). */
export const botUserId = (palId: string) => `pal_${palId}`;

export interface DailyOptions {
  apiKey: string;
  apiUrl: string;
  fetch: GuardedFetch;
}

/** One call to Daily's REST API: the status and the parsed JSON (null when the body is not JSON). */
export function dailyApi({ apiKey, apiUrl, fetch }: DailyOptions) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- callers read Daily's answers field by field
  return async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    let response: Response;
    try {
      response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        timeoutMs: 10_000,
        maxBytes: 1024 * 1024,
      });
    } catch (error) {
      throw new ProviderError(`daily ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: reported by the caller through the status */
    }
    return { status: response.status, json };
  };
}

/** An owner meeting token for the PAL's bot (owners are never knocked and may eject the room's participants). */
export async function createBotToken(
  options: DailyOptions,
  input: { room: string; exp: number; userName: string; userId: string },
): Promise<string> {
  const token = await dailyApi(options)('POST', '/meeting-tokens', {
    properties: { room_name: input.room, exp: input.exp, is_owner: true, user_name: input.userName, user_id: input.userId },
  });
  if (token.status !== 200 || typeof token.json?.token !== 'string')
    throw new ProviderError(`daily bot token creation failed (HTTP ${token.status})`);
  return token.json.token;
}

export function dailyProvider(options: DailyOptions): ConferencingProvider {
  const call = dailyApi(options);
  return {
    name: 'daily',
    canRecord: false,
    plannedUrl: () => null,
    async open({ conversationId, expiresAt }) {
      const exp = Math.floor(expiresAt.getTime() / 1000);
      const room = await call('POST', '/rooms', {
        name: conversationId,
        privacy: 'private',
        properties: {
          exp,
          eject_at_room_exp: true,
          enable_chat: true,
          enable_prejoin_ui: false,
          enable_knocking: false,
          start_video_off: false,
        },
      });
      if (room.status !== 200 || typeof room.json?.url !== 'string' || typeof room.json?.name !== 'string') {
        throw new ProviderError(`daily room creation failed (HTTP ${room.status}${room.json?.info ? `: ${room.json.info}` : ''})`);
      }
      const name: string = room.json.name;
      const token = await call('POST', '/meeting-tokens', { properties: { room_name: name, exp, is_owner: false } });
      if (token.status !== 200 || typeof token.json?.token !== 'string') {
        await call('DELETE', `/rooms/${encodeURIComponent(name)}`).catch(() => undefined);
        throw new ProviderError(`daily meeting token creation failed (HTTP ${token.status})`);
      }
      return { conversationUrl: room.json.url, meetingToken: token.json.token, room: name };
    },
    async close({ room }) {
      if (!room) return;
      const result = await call('DELETE', `/rooms/${encodeURIComponent(room)}`);
      // 404: already deleted or expired, which is the state we want.
      if (result.status !== 200 && result.status !== 404) throw new ProviderError(`daily room deletion failed (HTTP ${result.status})`);
    },
  };
}
