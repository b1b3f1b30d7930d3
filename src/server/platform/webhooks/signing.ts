// Standard Webhooks signatures: webhook-signature = "v1," + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")),
// where the key is the base64 part of the owner's "whsec_…" secret. Receivers verify with a Standard Webhooks
// library; the tests do so with the `standardwebhooks` package, the demo's receiver with verifyWebhook below.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Standard Webhooks' tolerance: a delivery whose timestamp is further than this from now is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

/**
 * Verifies a delivery: one of the webhook-signature header's space-separated signatures matches, and the
 * timestamp is within the tolerance of `now` (older or future-dated deliveries are refused as replays).
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  // eslint-disable-next-line no-restricted-syntax -- for receivers outside the service (the service never verifies its own): their wall clock
  now: Date = new Date(),
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
