// Standard Webhooks signatures: webhook-signature = "v1," + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")),
// where the key is the base64 part of the owner's "whsec_…" secret.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

/** Verifies a webhook-signature header (space-separated list of versioned signatures). */
export function verifyWebhook(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const expected = Buffer.from(signWebhook(secret, headers.id, Number(headers.timestamp), body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
