// Assembles the service: database, secrets, jobs, webhooks, the app; `listen` adds the Node HTTP server.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { readFile } from 'node:fs/promises';
import { ConfigError, type Config } from '../platform/config.js';
import type { ServiceDeps } from '../platform/context.js';
import { openDatabase } from '../platform/db/database.js';
import { createApp } from './http/app.js';
import type { ApiApp } from '../platform/http/app-env.js';
import { addApiKey } from '../platform/http/auth.js';
import { createJobQueue } from '../platform/jobs/queue.js';
import { createLogger, withFields } from '../platform/log.js';
import { newId } from '../platform/ids.js';
import { createGuardedFetch } from '../platform/net/guarded-fetch.js';
import { resourceModules } from './modules.js';
import { setDailyCallStart } from '../resources/conversations/daily-call-start.js';
import { startDailyCall } from '../live/runner/start-daily-call.js';
import type { ResourceModule } from '../resources/module.js';
import { loadMasterKey } from './master-key.js';
import { createSecrets } from '../platform/secrets.js';
import { Bus } from '../platform/bus.js';
import { systemClock, type Clock } from '../platform/time.js';
import { createWebhooks } from '../platform/webhooks/webhooks.js';
import { createMetrics } from '../platform/metrics.js';
import { privateRecordingFolder } from '../live/recording/folder.js';
import { connectionGuardOf, defaultMaxConnections, guardConnections } from '../platform/http/connection-guard.js';
import { openMediaStore } from '../resources/media/store.js';

/** A whole request, body included, must arrive within this (bodies are at most 1 MiB). */
const REQUEST_TIMEOUT_MS = 30_000;
/** Connections the kernel may queue before the service accepts them. */
const LISTEN_BACKLOG = 4096;

export interface Service {
  app: ApiApp;
  deps: ServiceDeps;
  /** Starts the HTTP server (port 0 picks a free one) and the job workers. */
  listen(port?: number, host?: string): Promise<{ server: Server; port: number; url: string }>;
  /**
   * Drains and stops: new conversation starts are refused and /readyz answers 503, live rooms are told
   * (closed with 1012, "service restarting"), running jobs are given back, the HTTP server stops (in-flight
   * requests get `graceMs` to finish, default 0), then the database closes.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  modules?: ResourceModule[];
  /** PostgreSQL schema to use (test isolation). */
  schema?: string;
  /** In-memory PGlite only: the data directory image to start from (see DatabaseOptions.pgliteImage). */
  pgliteImage?: Blob;
  /** Start job workers (default true). */
  runJobs?: boolean;
  /** Also export process metrics (CPU, memory, event loop) on /metrics: once per process (the command line). */
  processMetrics?: boolean;
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const instanceId = newId('i', 12);
  const log = withFields(createLogger(config.log), { instance: instanceId });
  config.recording.dir = privateRecordingFolder(config, log);
  const pgliteImage = options.pgliteImage ?? (config.pgliteImage ? await readPgliteImage(config.pgliteImage) : undefined);
  const opened = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log,
    ...(options.schema ? { schema: options.schema } : {}),
    ...(pgliteImage ? { pgliteImage } : {}),
  });
  const { db } = opened;
  for (const [key, owner] of config.seedKeys) await addApiKey(db, key, owner, 'seed');
  const fetch = createGuardedFetch(config.outboundAllow);
  const clock = options.clock ?? systemClock;
  const jobs = createJobQueue({ db, log, clock, leaseSeconds: config.jobLeaseSeconds });
  const metrics = createMetrics({ db, instanceId, processMetrics: options.processMetrics ?? false });
  const lifecycle = { draining: false, readiness: new Set<() => string | null>() };
  const webhooks = createWebhooks({ db, jobs, fetch, log, clock, metrics });
  const secrets = createSecrets(await loadMasterKey(db, config, log));
  const media = await openMediaStore({ db, kind: opened.kind, dataDir: config.dataDir, config, log });
  const deps: ServiceDeps = {
    config,
    instanceId,
    db,
    dbKind: opened.kind,
    hasVector: opened.hasVector,
    clock,
    log,
    fetch,
    jobs,
    webhooks,
    secrets,
    bus: new Bus(),
    metrics,
    lifecycle,
    media,
  };
  // Daily calls are started by live, from createConversation a layer below: handed down here.
  setDailyCallStart(deps, startDailyCall);
  const modules = options.modules ?? resourceModules;
  for (const module of modules) for (const [kind, handler] of Object.entries(module.jobs?.(deps) ?? {})) jobs.register(kind, handler);
  const app = createApp(deps, modules);
  const stops: Array<() => Promise<void>> = [];
  let server: Server | undefined;
  if (options.runJobs !== false) jobs.start();

  return {
    app,
    deps,
    async listen(port = config.port, host = '0.0.0.0') {
      const { connections } = config;
      server = await new Promise<Server>((resolve, reject) => {
        const serverOptions = {
          // A request's headers (an upgrade's too) must arrive in time, and its body within the request
          // timeout; Node checks both every connectionsCheckingInterval (30 s by default: a slow client
          // kept its connection that much longer).
          headersTimeout: connections.headersTimeoutMs,
          requestTimeout: Math.max(connections.headersTimeoutMs, REQUEST_TIMEOUT_MS),
          connectionsCheckingInterval: Math.min(1000, connections.headersTimeoutMs),
        };
        const s = createAdaptorServer({ fetch: app.fetch, hostname: host, serverOptions }) as Server;
        // Node's default backlog (511) overflowed under a flood of connects (1,000 at once from one address):
        // the kernel dropped the SYNs past it, health checks among them, which came back after TCP's 1 s
        // retry. The kernel caps it at net.core.somaxconn.
        // A port another process holds (EADDRINUSE) or one not ours to take (EACCES) fails the start, said
        // once, instead of leaving a process that answers nothing.
        s.once('error', reject);
        s.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
          s.off('error', reject);
          resolve(s);
        });
      });
      const max = connections.max ?? defaultMaxConnections();
      guardConnections(
        server,
        {
          max,
          perAddress: connections.perAddress,
          pendingUpgradesPerAddress: connections.pendingUpgradesPerAddress,
          maxPendingUpgrades: Math.max(16, Math.floor(max / 4)),
        },
        { trustProxy: config.trustProxy, onRefused: (reason) => metrics.connectionsRefused.inc({ reason }) },
      );
      for (const module of modules) {
        const stop = await module.attach?.(server, deps);
        if (stop) stops.push(stop);
      }
      const actual = (server.address() as AddressInfo).port;
      return { server, port: actual, url: `http://localhost:${actual}` };
    },
    async close({ graceMs = 0 } = {}) {
      lifecycle.draining = true;
      for (const stop of stops)
        await stop().catch((error: unknown) =>
          log.error('stopping failed', { error: error instanceof Error ? error.message : String(error) }),
        );
      await jobs.stop();
      if (server) {
        const s = server;
        const closed = new Promise<void>((resolve) => s.close(() => resolve()));
        s.closeIdleConnections();
        // eslint-disable-next-line no-restricted-globals -- in-flight requests end at the clients' pace: network time, not the service's
        if (graceMs > 0) await Promise.race([closed, new Promise((r) => setTimeout(r, graceMs).unref())]);
        s.closeAllConnections();
        connectionGuardOf(s)?.destroyAll();
        await closed;
      }
      await opened.close();
      await media.close();
    },
  };
}

/** PALKIT_PGLITE_IMAGE's file, or a start-up error that names it. */
async function readPgliteImage(path: string): Promise<Blob> {
  try {
    return new Blob([await readFile(path)]);
  } catch (error) {
    throw new ConfigError(
      `invalid configuration: PALKIT_PGLITE_IMAGE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}
