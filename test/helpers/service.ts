// Test harness: a service on a fresh in-memory PGlite, or on PostgreSQL in a database of its own, cloned
// from a migrated template (pg-template.ts), when PALKIT_TEST_DATABASE_URL is set (CI runs the suite both
// ways). `api()` calls the app in-process (its fetch handler, no socket); the service listens on an
// ephemeral port only when the test asks (`{ listen: true }`, or startListeningService): for a WebSocket, a
// browser, a subprocess, or a URL something outside the process must reach.
import { after, beforeEach } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { loadConfig } from '../../src/server/platform/config.js';
import { createService, type Service, type ServiceOptions } from '../../src/server/app/service.js';
import { migratedPgliteImage, seedDataFolder } from './pglite-image.js';

export const KEY = 'test-key-owner-1';
export const OTHER_KEY = 'test-key-owner-2';

export interface TestService {
  service: Service;
  /** The Node HTTP server the service listens with (only when started with `listen: true`). */
  readonly server: Server;
  /** The listening service's URL (only when started with `listen: true`). */
  readonly url: string;
  /** Calls the API with the first owner's key unless `key` says otherwise (null sends none). */
  api(
    method: string,
    path: string,
    body?: unknown,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  /** Sends the request to the app in-process (its fetch handler, no socket), even when the service also listens. */
  fetchInProcess(request: Request): Promise<Response>;
  /** Idempotent; run when the file's tests are over, should the test forget. */
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface TestServiceOptions extends ServiceOptions {
  /** Listen on an ephemeral port (default: no socket; `api()` calls the app in-process). */
  listen?: boolean;
}

export const onPostgres = Boolean(process.env.PALKIT_TEST_DATABASE_URL);

/** The address an in-process request comes from, as the Node adapter's socket would give it (getConnInfo). */
const IN_PROCESS_PEER = { remoteAddress: '127.0.0.1', remotePort: 0, remoteFamily: 'IPv4' };

export async function startTestService(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const file = callingTestFile(); // before any await: the caller's frames are on the stack
  // Instances of one test may share a database (options.schema names it), as instances share one.
  // pg-template.ts (and with it the pg driver) is loaded on the PostgreSQL leg only: a file on PGlite never needs it.
  const database =
    onPostgres && !env.DATABASE_URL
      ? (await import('./pg-template.js')).testDatabase(process.env.PALKIT_TEST_DATABASE_URL!, options.schema)
      : undefined;
  let started: TestService;
  try {
    started = await startOn(database ? await database.url : undefined, env, options, database?.release);
  } catch (error) {
    await database?.release();
    throw error;
  }
  openServices.add(started);
  if (file) startedBy.set(started, file);
  return started;
}

// A forgotten close must not leak a service (its database, job workers, socket) past its file: whatever is
// still open when the file's tests are over is closed then. (Registered on the file's root when this module
// loads; a hook registered per service from inside a test or a `before` would belong to that test or hook,
// and close a service that a `before` shares with the tests after it.)
const openServices = new Set<TestService>();
after(async () => {
  await Promise.all([...openServices].map((s) => s.close()));
});

// In the gate every file of a shard runs in one process (--test-isolation=none), one file after another, and
// the after() above runs once all are over. So each service remembers the test file that started it (from
// the stack), and when the first test of another file begins, what the file before it left open is closed.
const startedBy = new WeakMap<TestService, string>();
let runningFile: string | undefined;
beforeEach(async (t) => {
  const file = (t as { filePath?: string }).filePath; // Node 22.6+ (this repository's @types/node is 20's)
  if (file === runningFile) return;
  const finished = runningFile;
  runningFile = file;
  if (finished) await Promise.all([...openServices].filter((s) => startedBy.get(s) === finished).map((s) => s.close()));
});

/** The test file (an absolute path) whose code is calling: the first file on the stack under test/ but outside test/helpers/. */
function callingTestFile(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const [, where] of stack.matchAll(/\(?((?:file:\/\/)?\/[^\s()]+):\d+:\d+\)?$/gm)) {
    const file = where!.startsWith('file:') ? fileURLToPath(where!) : where!;
    if (/\/test\//.test(file) && !/\/test\/helpers\//.test(file) && !file.includes('/node_modules/')) return file;
  }
  return undefined;
}

/** A service that listens on an ephemeral port (`url`, `server`), for tests that need a socket. */
export function startListeningService(env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestService> {
  return startTestService(env, { ...options, listen: true });
}

async function startOn(
  databaseUrl: string | undefined,
  env: Record<string, string>,
  options: TestServiceOptions,
  release: (() => Promise<void>) | undefined,
): Promise<TestService> {
  const { schema: _shared, listen, ...serviceOptions } = options;
  const config = loadConfig(
    {
      PALKIT_DATA: 'memory',
      PALKIT_API_KEYS: `${KEY}:1,${OTHER_KEY}:2`,
      PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
      PALKIT_LOG: 'error',
      PALKIT_JOB_LEASE_SECONDS: '3',
      // Tests start many calls from one address and join few of them; the front door's own tests
      // (front-door.test.ts) set these back.
      PALKIT_START_RATE_PER_MINUTE: '0',
      PALKIT_MAX_UNJOINED_CALLS: '0',
      // Daily conversations get no Chromium runner page unless a test asks (live/runner's own tests do).
      PALKIT_DAILY_RUNNER_PAGES: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    0,
  );
  // In memory on PGlite, a copy of this process's migrated database (see pglite-image.ts).
  const image = !config.databaseUrl && config.dataDir === 'memory' && !options.pgliteImage ? await migratedPgliteImage() : undefined;
  // On a data folder of its own, the same migrated database unpacked there.
  if (!config.databaseUrl && config.dataDir !== 'memory') await seedDataFolder(config.dataDir);
  const service = await createService(config, { ...serviceOptions, ...(image ? { pgliteImage: image } : {}) });
  let listening: { server: Server; url: string } | undefined;
  if (listen) {
    try {
      listening = await service.listen(0, '127.0.0.1');
    } catch (error) {
      await service.close();
      throw error;
    }
    // conversation_url and media URLs must point at this instance.
    if (!env.PALKIT_PUBLIC_URL) (config as { publicUrl: string }).publicUrl = listening.url;
  }
  const origin = listening?.url ?? config.publicUrl;
  const notListening = (what: string) =>
    new Error(`the test service has no ${what}: start it with { listen: true } (startListeningService) when the test needs a socket`);
  let closing: Promise<void> | undefined;
  const self: TestService = {
    service,
    get server() {
      if (!listening) throw notListening('server');
      return listening.server;
    },
    get url() {
      if (!listening) throw notListening('url');
      return listening.url;
    },
    async api(method, path, body, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const key = opts.key === undefined ? KEY : opts.key;
      if (key !== null) headers['x-api-key'] = key;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
        // As a client on the wire would send it (the body limit reads it before the body).
        headers['content-length'] ??= String(Buffer.byteLength(payload));
      }
      const request = new Request(origin + path, { method, headers, body: payload });
      const response = listening ? await fetch(request) : await self.fetchInProcess(request);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async fetchInProcess(request) {
      return service.app.fetch(request, { incoming: { socket: IN_PROCESS_PEER, readableEnded: true } });
    },
    close() {
      closing ??= (async () => {
        openServices.delete(self);
        await service.close();
        await release?.();
      })();
      return closing;
    },
  };
  return self;
}
