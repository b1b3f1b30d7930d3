// One PostgreSQL connection of its own (outside the pool) that is opened again whenever it is lost: the
// server may terminate it, restart, fail over or time it out at any moment. While it is away `client`
// is null; it is retried with backoff (0.25 s doubling to 10 s, jittered) until it is back or closed.
// Nothing here throws out: a lost connection is logged and retried, never an uncaught 'error'.
import type pg from 'pg';
import type { Clock, ClockTimer } from '../time.js';
import { backoffMs } from '../backoff.js';
import type { Logger } from '../log.js';

export const RECONNECT = { baseMs: 250, maxMs: 10_000, jitter: true } as const;

export interface KeptConnection {
  /** The open connection, or null while it is being opened again. */
  readonly client: pg.Client | null;
  /** Resolves once a connection is open (at once when one is); never rejects. */
  opened(): Promise<pg.Client | null>;
  close(): Promise<void>;
}

export interface KeptConnectionOptions {
  url: string;
  applicationName: string;
  log: Logger;
  /** The service's clock: the reconnect backoff waits on it. */
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** What this connection is for, in log lines. */
  what: string;
  /** Run on each new connection before it counts as open (LISTEN again after a reconnect). */
  setUp?: (client: pg.Client) => Promise<void>;
  onOpen?: () => void;
  onLost?: () => void;
}

export function keepConnected(options: KeptConnectionOptions): KeptConnection {
  const { log, what } = options;
  let client: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let timer: ClockTimer | undefined;
  let waiting: Array<(client: pg.Client | null) => void> = [];

  const settle = (value: pg.Client | null) => {
    const waiters = waiting;
    waiting = [];
    for (const resolve of waiters) resolve(value);
  };

  const retry = () => {
    if (closed || timer) return;
    const wait = backoffMs(++failures, RECONNECT);
    timer = options.clock.setTimeout(() => {
      timer = undefined;
      void open();
    }, wait);
    timer.unref();
  };

  const open = async (): Promise<void> => {
    // keepAlive: a connection whose server vanished without a reset (a failover) is noticed too.
    const { Client } = (await import('pg')).default; // loaded only where PostgreSQL is used
    const candidate = new Client({
      connectionString: options.url,
      application_name: options.applicationName,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    let lost = false;
    const onGone = (error?: Error) => {
      if (lost) return;
      lost = true;
      candidate.end().catch(() => undefined);
      if (client !== candidate) return; // failed while opening: the catch below retries
      client = null;
      if (closed) return;
      log.error(`${what}: connection lost; reconnecting`, { error: error?.message ?? 'closed' });
      options.onLost?.();
      retry();
    };
    candidate.on('error', onGone);
    candidate.on('end', () => onGone());
    try {
      await candidate.connect();
      await options.setUp?.(candidate);
      if (lost) throw new Error('connection lost while opening');
    } catch (error) {
      lost = true;
      candidate.end().catch(() => undefined);
      if (closed) return settle(null);
      if (failures === 0 || failures % 10 === 0)
        log.error(`${what}: cannot connect; retrying`, {
          error: error instanceof Error ? error.message : String(error),
          attempt: failures + 1,
        });
      return retry();
    }
    if (closed) {
      await candidate.end().catch(() => undefined);
      return settle(null);
    }
    if (failures > 0) log.info(`${what}: connection open again`, { attempts: failures });
    failures = 0;
    client = candidate;
    options.onOpen?.();
    settle(candidate);
  };

  void open();
  return {
    get client() {
      return client;
    },
    opened() {
      if (client || closed) return Promise.resolve(client);
      return new Promise((resolve) => waiting.push(resolve));
    },
    async close() {
      closed = true;
      options.clock.clearTimeout(timer);
      const open = client;
      client = null;
      settle(null);
      await open?.end().catch(() => undefined);
    },
  };
}
