// What every part of the service is handed: no module-level singletons.
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Clock } from './time.js';
import type { Logger } from './log.js';
import type { GuardedFetch } from './net/guarded-fetch.js';
import type { JobQueue } from './jobs/queue.js';
import type { Webhooks } from './webhooks/webhooks.js';
import type { Secrets } from './secrets.js';
import type { Bus } from './bus.js';
import type { ServiceMetrics } from './metrics.js';
import type { MediaStore } from './media/media-store.js';

/** What a draining instance answers a start or a room join: the error body's `error`. */
export const SHUTTING_DOWN = 'shutting_down: this instance is shutting down; start the conversation again in a moment';

/** Where the service is in its life: set `draining` once shutdown begins (starts refused, /readyz 503). */
export interface Lifecycle {
  draining: boolean;
  /**
   * Parts that can lose their footing while the service runs (the instance channel's connections), asked
   * by /readyz: each answers why it is not ready, or null.
   */
  readonly readiness: Set<() => string | null>;
}

export interface ServiceDeps {
  config: Config;
  /** This process among the instances sharing the database (a new one each start): in logs, /healthz, /metrics. */
  instanceId: string;
  db: Db;
  /** 'pglite' or 'postgres'; `hasVector` tells whether pgvector is installed. */
  dbKind: 'pglite' | 'postgres';
  hasVector: boolean;
  clock: Clock;
  log: Logger;
  /** The only way the service reaches other hosts (SSRF guard, size and time caps). */
  fetch: GuardedFetch;
  jobs: JobQueue;
  webhooks: Webhooks;
  secrets: Secrets;
  bus: Bus;
  metrics: ServiceMetrics;
  lifecycle: Lifecycle;
  /** Stored files (speech, videos, face media, uploads): files on PGlite, bytea on PostgreSQL. */
  media: MediaStore;
}
