// The shape of one area of the service (one folder under resources/): its routes, its background
// jobs and, when it needs the raw HTTP server (WebSocket rooms), a hook to attach to it.
import type { Server } from 'node:http';
import type { ServiceDeps } from '../platform/context.js';
import type { ApiApp } from '../platform/http/app-env.js';
import type { JobHandler } from '../platform/jobs/queue.js';

export interface ResourceModule {
  name: string;
  routes?(app: ApiApp, deps: ServiceDeps): void;
  jobs?(deps: ServiceDeps): Record<string, JobHandler>;
  /** Once the HTTP server exists (WebSocket upgrades, timers); may return a stop function. */
  attach?(server: Server, deps: ServiceDeps): void | (() => Promise<void>) | Promise<() => Promise<void>>;
}
