// The public deployment start (POST /v2/deployments/{id}/start) under 50 concurrent callers on PGlite,
// beside a bare Hono handler doing one insert into a PGlite table: what the start's checks, limit
// transaction and room token cost over the floor of "HTTP + one write". With PALKIT_BENCH_DATABASE_URL
// set, the start is measured on that PostgreSQL as well (in a schema of its own, dropped afterwards).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { loadConfig } from '../src/server/platform/config.js';
import { createService } from '../src/server/app/service.js';
import { formatLoad, runLoad, type LoadResult } from './load.js';

const CONCURRENCY = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);

async function startService(databaseUrl?: string) {
  const key = 'bench-key';
  const config = loadConfig(
    {
      PALKIT_DATA: 'memory',
      PALKIT_API_KEYS: `${key}:1`,
      PALKIT_LOG: 'error',
      PALKIT_START_RATE_PER_MINUTE: '0',
      PALKIT_MAX_UNJOINED_CALLS: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    0,
  );
  const schema = databaseUrl ? `bench_${process.pid}` : undefined;
  const service = await createService(config, { runJobs: false, ...(schema ? { schema } : {}) });
  const { url } = await service.listen(0, '127.0.0.1');
  (config as { publicUrl: string }).publicUrl = url;
  const { db } = service.deps;
  // A PAL with a trained face (rows as the PAL and face areas write them).
  await db.insertInto('faces').values({ face_id: 'rbenchface', owner_id: 1, face_name: 'Bench face', status: 'completed' }).execute();
  await db
    .insertInto('pals')
    .values({
      pal_id: 'pbenchpal',
      owner_id: 1,
      pal_name: 'Bench PAL',
      default_face_id: 'rbenchface',
      definition: JSON.stringify({ pal_name: 'Bench PAL', system_prompt: 'Bench', pipeline_mode: 'echo', default_face_id: 'rbenchface' }),
    })
    .execute();
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const created = (await (
    await fetch(`${url}/v2/deployments`, { method: 'POST', headers, body: JSON.stringify({ pal_id: 'pbenchpal', channel: 'widget' }) })
  ).json()) as { deployment_id: string };
  const patched = await fetch(`${url}/v2/deployments/${created.deployment_id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify([{ op: 'replace', path: '/status', value: 'active' }]),
  });
  if (patched.status !== 200) throw new Error(`could not activate the deployment: ${patched.status}`);
  const close = async () => {
    await service.close();
    if (!schema || !databaseUrl) return;
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`drop schema ${schema} cascade`);
    await client.end();
  };
  return { close, startUrl: `${url}/v2/deployments/${created.deployment_id}/start` };
}

async function startBare() {
  const pglite = await PGlite.create();
  await pglite.exec('create table starts (id text primary key, payload jsonb not null, created_at timestamptz not null default now())');
  let n = 0;
  const app = new Hono();
  app.post('/start', async (c) => {
    const body = await c.req.json();
    const id = `c${process.pid}x${n++}`;
    await pglite.query('insert into starts (id, payload) values ($1, $2)', [id, JSON.stringify(body)]);
    return c.json({ conversation_id: id });
  });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server)) as Server;
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/start`,
    close: async () => {
      server.closeAllConnections?.();
      await new Promise<void>((r) => server.close(() => r()));
      await pglite.close();
    },
  };
}

export default async function startBench(): Promise<void> {
  const body = JSON.stringify({ conversational_context: 'bench visitor' });
  const load = { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS };

  const bare = await startBare();
  const bareResult = await runLoad(bare.url, body, load);
  await bare.close();

  const onPglite = await startService();
  const startResult = await runLoad(onPglite.startUrl, body, load);
  await onPglite.close();

  const pgUrl = process.env.PALKIT_BENCH_DATABASE_URL;
  let pgResult: LoadResult | undefined;
  if (pgUrl) {
    const onPostgres = await startService(pgUrl);
    pgResult = await runLoad(onPostgres.startUrl, body, load);
    await onPostgres.close();
  }

  console.log(
    `${CONCURRENCY} concurrent callers in a separate process, ${SECONDS} s each after ${WARMUP_SECONDS} s warm-up, PGlite in memory, Node ${process.version}`,
  );
  console.log(formatLoad('bare Hono + one PGlite insert', bareResult));
  console.log(formatLoad('POST /v2/deployments/{id}/start', startResult));
  if (pgResult) console.log(formatLoad('the same start on PostgreSQL', pgResult));
  console.log(
    `ratio (start / bare): throughput ${(startResult.perSecond / bareResult.perSecond).toFixed(2)}x, p50 ${(startResult.p50 / bareResult.p50).toFixed(2)}x, p99 ${(startResult.p99 / bareResult.p99).toFixed(2)}x`,
  );
  for (const r of [startResult, pgResult ?? startResult]) {
    if ((r.statuses[200] ?? 0) !== r.requests) throw new Error(`some starts failed: ${JSON.stringify(r.statuses)}`);
  }
}
