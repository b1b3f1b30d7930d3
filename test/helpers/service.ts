// Test harness: a real service on an ephemeral port, on a fresh in-memory PGlite, or on PostgreSQL in
// a database of its own, cloned from a migrated template (pg-template.ts), when PALKIT_TEST_DATABASE_URL
// is set (CI runs the suite both ways).
import type { Server } from 'node:http';
import { loadConfig } from '../../src/server/platform/config.js';
import { createService, type Service, type ServiceOptions } from '../../src/server/app/service.js';
import { migratedPgliteImage, seedDataFolder } from './pglite-image.js';
import { testDatabase } from './pg-template.js';

export const KEY = 'test-key-owner-1';
export const OTHER_KEY = 'test-key-owner-2';

export interface TestService {
  service: Service;
  /** The Node HTTP server the service listens with. */
  server: Server;
  url: string;
  /** Calls the API with the first owner's key unless `key` says otherwise (null sends none). */
  api(method: string, path: string, body?: unknown, options?: { key?: string | null; headers?: Record<string, string> }): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export const onPostgres = Boolean(process.env.PALKIT_TEST_DATABASE_URL);

export async function startTestService(env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestService> {
  // Instances of one test may share a database (options.schema names it), as instances share one.
  const database = onPostgres && !env.DATABASE_URL ? testDatabase(process.env.PALKIT_TEST_DATABASE_URL!, options.schema) : undefined;
  try {
    return await startOn(database ? await database.url : undefined, env, options, database?.release);
  } catch (error) {
    await database?.release();
    throw error;
  }
}

async function startOn(databaseUrl: string | undefined, env: Record<string, string>, options: ServiceOptions, release: (() => Promise<void>) | undefined): Promise<TestService> {
  const { schema: _shared, ...serviceOptions } = options;
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
  const { url, server } = await service.listen(0, '127.0.0.1');
  // conversation_url and media URLs must point at this instance.
  if (!env.PALKIT_PUBLIC_URL) (config as { publicUrl: string }).publicUrl = url;
  return {
    service,
    server,
    url,
    async api(method, path, body, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const key = opts.key === undefined ? KEY : opts.key;
      if (key !== null) headers['x-api-key'] = key;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + path, { method, headers, body: payload });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      await service.close();
      await release?.();
    },
  };
}
