// Callback signatures are checked as a customer's receiver would: with the `standardwebhooks` package
// (its 5-minute timestamp tolerance included), never with palkit's own signer.
import { Webhook } from 'standardwebhooks';

export function verifiedWebhook(secret: string, headers: Record<string, unknown>, body: string): boolean {
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}
