// The runner's credential for one conversation: "rt.<conversation_id>.<expiry>.<signature>", signed with
// the service secret (any instance can check it), valid until the room expires and for that conversation only.
import type { Secrets } from '../../platform/secrets.js';

const PURPOSE = 'pal-runner-token';

export function signRunnerToken(secrets: Secrets, conversationId: string, expiresAt: Date): string {
  const body = `${conversationId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `rt.${body}.${secrets.sign(PURPOSE, body)}`;
}

export function verifyRunnerToken(secrets: Secrets, conversationId: string, token: string, now: Date): boolean {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'rt') return false;
  const [, room, expiry, signature] = parts as [string, string, string, string];
  if (room !== conversationId || !/^\d+$/.test(expiry)) return false;
  if (!secrets.verify(PURPOSE, `${room}.${expiry}`, signature)) return false;
  return Number(expiry) * 1000 >= now.getTime();
}
