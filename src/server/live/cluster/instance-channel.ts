// Messages between service instances that share one PostgreSQL, carried by LISTEN/NOTIFY: each instance
// listens on a channel named after itself and sends with pg_notify on a connection of its own, so what
// one instance sends another arrives in order. NOTIFY payloads stop short of 8,000 bytes; a longer
// message travels in numbered parts and is put back together on arrival. Short messages travel packed
// together, several notifications a round trip (notify-batch.ts).
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../../platform/time.js';
import type { Logger } from '../../platform/log.js';
import { APPLICATION_NAME } from '../../platform/db/database.js';
import { keepConnected } from '../../platform/db/kept-connection.js';
import { MAX_BATCH_BYTES, NotificationPacker, notifyStatement, unpacked } from './notify-batch.js';
import { SendQueue, type ShedKind } from './send-queue.js';

export interface InstanceChannel {
  readonly instanceId: string;
  /** Both connections are open (a lost one is being opened again). */
  readonly ready: boolean;
  /** What waits to be sent, in bytes. */
  readonly queuedBytes: number;
  /** Relayed participants whose audio was shed in the last few seconds (the channel is past its capacity). */
  readonly sheddingParticipants: number;
  /**
   * Sends to another instance (fire and forget: an instance that is gone simply never reads it). Audio
   * is shed first when the queue backs up, from the participant (`source`) with the most of it queued.
   */
  send(to: string, message: object, options?: { audio?: boolean; source?: string }): void;
  close(): Promise<void>;
}

/** Below PostgreSQL's 8,000-byte NOTIFY payload limit, with room for the part's envelope. */
const MAX_PAYLOAD = 7_000;
/** A message whose parts stop arriving is dropped after this long. */
const PART_TIMEOUT_MS = 10_000;

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
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({ k: 'part', id, i, n, d: encoded.slice(i * MAX_PAYLOAD, (i + 1) * MAX_PAYLOAD) } satisfies Part),
  );
}

/** Puts parted messages back together; whole messages pass straight through. */
export class PayloadAssembler {
  private readonly partial = new Map<string, { parts: string[]; got: number; since: number }>();

  /** `now`: the service's clock in milliseconds (the channel passes it; the default is for units alone). */
  constructor(private readonly now: () => number = () => systemClock.now().getTime()) {}

  /** The message this payload completes, or null (a part of one still arriving, or not a message). */
  accept(payload: string | unknown, now = this.now()): Record<string, unknown> | null {
    const value = typeof payload === 'string' ? parseObject(payload) : isObject(payload) ? payload : null;
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
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The whole messages a notification completes (a packed one carries several). */
export function messagesOf(assembler: PayloadAssembler, payload: string): Array<Record<string, unknown>> {
  const value = parseObject(payload);
  if (!value) return [];
  return unpacked(value).flatMap((p) => {
    const message = assembler.accept(p);
    return message ? [message] : [];
  });
}

export interface ChannelOptions {
  log: Logger;
  /** The service's clock: reconnects, the wait for a goodbye on close, how long a partial message is kept. */
  clock: Clock;
  /** Payloads shed by the bounded send queue (see send-queue.ts). */
  onShed?: (kind: ShedKind, payloads: number) => void;
}

/**
 * Opens this instance's channel on PostgreSQL: a listening connection and a sending one, each opened
 * again with backoff whenever it is lost (kept-connection.ts). `onMessage` gets every whole message sent
 * to this instance. What is sent waits in a bounded queue (send-queue.ts) while the sending connection
 * is busy or away; a payload in flight when the connection drops is lost (at most once, as NOTIFY itself).
 */
export async function openPostgresChannel(
  databaseUrl: string,
  instanceId: string,
  onMessage: (message: Record<string, unknown>) => void,
  { log, clock, onShed = () => undefined }: ChannelOptions,
): Promise<InstanceChannel> {
  const assembler = new PayloadAssembler(() => clock.now().getTime());
  let closed = false;
  const queue = new SendQueue(onShed);
  const packer = new NotificationPacker();
  let draining: Promise<void> | null = null;

  const listener = keepConnected({
    clock,
    url: databaseUrl,
    applicationName: `${APPLICATION_NAME}/listen`,
    log,
    what: 'room channel (listening)',
    setUp: async (client) => {
      client.on('notification', (n) => {
        if (n.payload !== undefined) for (const message of messagesOf(assembler, n.payload)) onMessage(message);
      });
      await client.query(`listen "${channelName(instanceId)}"`);
    },
  });
  const sender = keepConnected({
    clock,
    url: databaseUrl,
    applicationName: `${APPLICATION_NAME}/send`,
    log,
    what: 'room channel (sending)',
    onOpen: () => void drain(), // never before this function returns: opening awaits first
  });

  /**
   * One connection sends everything, one statement after another, so messages arrive in the order sent;
   * each statement carries what waited, packed into a few notifications.
   */
  function drain(): Promise<void> {
    return (draining ??= (async () => {
      for (;;) {
        const client = sender.client;
        if (!client) return; // opened again later: onOpen drains again
        const batch = queue.shiftUpTo(MAX_BATCH_BYTES);
        if (!batch.length) return;
        const { text, values } = notifyStatement(packer.pack(batch), channelName);
        try {
          await client.query(text, values);
        } catch (error) {
          if (sender.client === client)
            log.error('room channel could not send', {
              to: [...new Set(batch.map((b) => b.to))].join(','),
              error: error instanceof Error ? error.message : String(error),
            });
        }
      }
    })().finally(() => {
      draining = null;
      if (sender.client && queue.length) void drain();
    }));
  }

  await Promise.all([listener.opened(), sender.opened()]);

  return {
    instanceId,
    get ready() {
      return !closed && listener.client !== null && sender.client !== null;
    },
    get queuedBytes() {
      return queue.bytes;
    },
    get sheddingParticipants() {
      return queue.sheddingSources;
    },
    send(to, message, options = {}) {
      if (closed) return;
      if (queue.push(to, toPayloads(message), options.audio === true, options.source ?? '')) void drain();
    },
    async close() {
      closed = true;
      // What was sent before closing still leaves (rooms tell their participants goodbye), unless the
      // connection is away: then it waits no longer than a moment.
      await Promise.race([drain(), new Promise((resolve) => clock.setTimeout(() => resolve(undefined), 2_000).unref())]);
      await Promise.allSettled([listener.close(), sender.close()]);
    },
  };
}
