// Messages between service instances that share one PostgreSQL, carried by LISTEN/NOTIFY: each instance
// listens on a channel named after itself and sends with pg_notify on a connection of its own, so what
// one instance sends another arrives in order. NOTIFY payloads stop short of 8,000 bytes; a longer
// message travels in numbered parts and is put back together on arrival.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../app/log.js';

export interface InstanceChannel {
  readonly instanceId: string;
  /** Sends to another instance (fire and forget: an instance that is gone simply never reads it). */
  send(to: string, message: object): void;
  close(): Promise<void>;
}

/** Below PostgreSQL's 8,000-byte NOTIFY payload limit, with room for the part's envelope. */
const MAX_PAYLOAD = 7_000;
/** A message whose parts stop arriving is dropped after this long. */
const PART_TIMEOUT_MS = 10_000;
const RECONNECT_MS = 1_000;

export const channelName = (instanceId: string) => `palkit_room_${instanceId}`;

interface Part {
  k: 'part';
  id: string;
  i: number;
  n: number;
  d: string;
}

/** Splits a message into NOTIFY payloads (one, unless it is long). */
export function toPayloads(message: object): string[] {
  const text = JSON.stringify(message);
  if (Buffer.byteLength(text) <= MAX_PAYLOAD) return [text];
  const encoded = Buffer.from(text).toString('base64');
  const id = randomUUID();
  const n = Math.ceil(encoded.length / MAX_PAYLOAD);
  return Array.from({ length: n }, (_, i) => JSON.stringify({ k: 'part', id, i, n, d: encoded.slice(i * MAX_PAYLOAD, (i + 1) * MAX_PAYLOAD) } satisfies Part));
}

/** Puts parted messages back together; whole messages pass straight through. */
export class PayloadAssembler {
  private readonly partial = new Map<string, { parts: string[]; got: number; since: number }>();

  /** The message this payload completes, or null (a part of one still arriving, or not a message). */
  accept(payload: string, now = Date.now()): Record<string, unknown> | null {
    const value = parseObject(payload);
    if (!value || value.k !== 'part') return value;
    const { id, i, n, d } = value as unknown as Part;
    if (typeof id !== 'string' || !Number.isInteger(i) || !Number.isInteger(n) || i < 0 || i >= n || typeof d !== 'string') return null;
    for (const [key, entry] of this.partial) if (now - entry.since > PART_TIMEOUT_MS) this.partial.delete(key);
    let entry = this.partial.get(id);
    if (!entry) this.partial.set(id, (entry = { parts: new Array<string>(n), got: 0, since: now }));
    if (entry.parts[i] === undefined) entry.got++;
    entry.parts[i] = d;
    if (entry.got < n) return null;
    this.partial.delete(id);
    return parseObject(Buffer.from(entry.parts.join(''), 'base64').toString());
  }
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Opens this instance's channel on PostgreSQL: a listening connection (reconnected if it drops) and a
 * sending one. `onMessage` gets every whole message sent to this instance.
 */
export async function openPostgresChannel(
  databaseUrl: string,
  instanceId: string,
  onMessage: (message: Record<string, unknown>) => void,
  log: Logger,
): Promise<InstanceChannel> {
  const pg = (await import('pg')).default;
  const assembler = new PayloadAssembler();
  let closed = false;
  let listener: InstanceType<typeof pg.Client> | null = null;
  let reconnect: NodeJS.Timeout | undefined;

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (n) => {
      const message = n.payload === undefined ? null : assembler.accept(n.payload);
      if (message) onMessage(message);
    });
    const lost = (error?: Error) => {
      if (closed || listener !== client) return;
      listener = null;
      log.error('room channel lost its connection; reconnecting', { error: error?.message ?? 'closed' });
      client.end().catch(() => {});
      reconnect = setTimeout(() => void listen().catch((e: unknown) => lost(e instanceof Error ? e : undefined)), RECONNECT_MS);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    listener = client;
    await client.connect();
    await client.query(`listen "${channelName(instanceId)}"`);
  };
  await listen();

  const sender = new pg.Client({ connectionString: databaseUrl });
  sender.on('error', (error) => log.error('room channel could not send', { error: error.message }));
  await sender.connect();
  // One connection sends everything, one statement after another, so messages arrive in the order sent.
  let sending = Promise.resolve();

  return {
    instanceId,
    send(to, message) {
      if (closed) return;
      for (const payload of toPayloads(message)) {
        sending = sending
          .then(() => sender.query('select pg_notify($1, $2)', [channelName(to), payload]))
          .then(
            () => undefined,
            (error: unknown) => log.error('room channel could not send', { to, error: error instanceof Error ? error.message : String(error) }),
          );
      }
    },
    async close() {
      closed = true;
      clearTimeout(reconnect);
      await sending; // what was sent before closing still leaves (rooms tell their participants goodbye)
      await Promise.allSettled([listener?.end(), sender.end()]);
    },
  };
}
