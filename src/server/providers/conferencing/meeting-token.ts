// meeting_token: admits one participant to one local room. "<conversation_id>.<expiry>.<role>.<signature>",
// signed with the service secret, so any instance can check it without a lookup.
import type { Secrets } from '../../platform/secrets.js';

/**
 * `bridge`: palkit's own runner in a Daily conversation, carrying the Daily room's visitor into the PAL's
 * local room (live/runner/pages.ts). Never handed out: the socket admits it to Daily conversations only,
 * and only it admits anyone to them.
 */
export type TokenRole = 'visitor' | 'operator' | 'bridge';

export function signMeetingToken(secrets: Secrets, conversationId: string, expiresAt: Date, role: TokenRole = 'visitor'): string {
  const body = `${conversationId}.${Math.floor(expiresAt.getTime() / 1000)}.${role}`;
  return `${body}.${secrets.sign('meeting-token', body)}`;
}

/** The role the token grants for this room, or null when it is forged, expired or for another room. */
export function verifyMeetingToken(secrets: Secrets, conversationId: string, token: string, now: Date): TokenRole | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [room, expiry, role, signature] = parts as [string, string, string, string];
  if (room !== conversationId || (role !== 'visitor' && role !== 'operator' && role !== 'bridge')) return null;
  if (!secrets.verify('meeting-token', `${room}.${expiry}.${role}`, signature)) return null;
  if (Number(expiry) * 1000 < now.getTime()) return null;
  return role;
}
