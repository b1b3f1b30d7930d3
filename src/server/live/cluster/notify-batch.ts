// Many small payloads in few notifications: what waits for the same instance is packed into one NOTIFY
// payload (`{"k":"b","s":…,"p":[…]}`) below PostgreSQL's 8,000-byte limit, and one round trip carries
// several of them (`select pg_notify(…), pg_notify(…)`), so 16 kHz microphones relayed for 50 participants
// cost tens of round trips a second instead of over a thousand. Every packed payload has a sequence of its
// own: PostgreSQL delivers identical payloads sent in one transaction only once (two silent frames alike).
import { randomUUID } from 'node:crypto';

/** What one notification may carry: below the 8,000-byte NOTIFY limit. */
export const MAX_NOTIFICATION_BYTES = 7_900;
/** What one round trip carries at most: several notifications. */
export const MAX_BATCH_BYTES = 64 * 1024;

export interface Notification {
  to: string;
  payload: string;
}

/** Packs payloads (each a JSON object, in the order sent) into notifications per destination, keeping each destination's order. */
export class NotificationPacker {
  private readonly prefix = randomUUID().slice(0, 8);
  private sequence = 0;

  pack(items: ReadonlyArray<{ to: string; payload: string }>): Notification[] {
    const open = new Map<string, { parts: string[]; bytes: number }>();
    const out: Notification[] = [];
    const close = (to: string) => {
      const batch = open.get(to);
      open.delete(to);
      if (batch?.parts.length)
        out.push({ to, payload: `{"k":"b","s":"${this.prefix}.${++this.sequence}","p":[${batch.parts.join(',')}]}` });
    };
    for (const { to, payload } of items) {
      const bytes = Buffer.byteLength(payload) + 1;
      const batch = open.get(to);
      if (batch && batch.bytes + bytes > MAX_NOTIFICATION_BYTES) close(to);
      const current = open.get(to) ?? { parts: [], bytes: 40 };
      current.parts.push(payload);
      current.bytes += bytes;
      open.set(to, current);
    }
    for (const to of [...open.keys()]) close(to);
    if (this.sequence > 0x7ffffff0) this.sequence = 0;
    return out;
  }
}

/** One statement that sends every notification of a batch, in order. */
export function notifyStatement(notifications: Notification[], channelName: (to: string) => string): { text: string; values: string[] } {
  const values: string[] = [];
  const calls = notifications.map(({ to, payload }) => {
    values.push(channelName(to), payload);
    return `pg_notify($${values.length - 1}, $${values.length})`;
  });
  return { text: `select ${calls.join(', ')}`, values };
}

/** The payloads a notification carries: the packed ones, or itself. */
export function unpacked(value: Record<string, unknown>): unknown[] {
  return value.k === 'b' && Array.isArray(value.p) ? value.p : [value];
}
