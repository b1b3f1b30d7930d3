// Start throughput with one and with two service instances on one PostgreSQL: each instance is its own
// `palkit serve` process (as an operator runs them), and 50 callers POST the public start, spread over
// the instances as a load balancer would. Twice: all callers starting one deployment (every start
// counts on that deployment's row, so the row lock and the commit bound it), and spread over ten
// deployments, as many customers' pages are. Needs PALKIT_BENCH_DATABASE_URL (a throwaway database is
// created beside the one it names, and dropped afterwards).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { cpuSnapshot, cpuUse, type CpuUse } from './cpu.js';
import { formatLoad, runLoad, type LoadResult } from './load.js';

const CONCURRENCY = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const KEY = 'bench-key';
const DEPLOYMENTS = 10;
const cli = fileURLToPath(new URL('../src/server/cli.ts', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One `palkit serve` process on the database; resolves once /readyz answers 200. */
async function startInstance(databaseUrl: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PALKIT_API_KEYS: `${KEY}:1`, PALKIT_SECRET: 'bench-secret-shared-by-the-instances', PALKIT_LOG: 'error', PALKIT_PUBLIC_URL: url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the instance exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) return { url, process: child };
    if (Date.now() > deadline) throw new Error('the instance did not become ready within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** CPU seconds the run used per start answered, over the whole machine (warm-up starts included). */
function cpuSecondsPerStart(r: LoadResult & { cpu: CpuUse }): number {
  const started = r.requests * ((SECONDS + WARMUP_SECONDS) / SECONDS);
  return (r.cpu.processSeconds + r.cpu.postgresSeconds + r.cpu.otherSeconds) / started;
}

function cpuLine(r: LoadResult & { cpu: CpuUse }): string {
  const started = r.requests * ((SECONDS + WARMUP_SECONDS) / SECONDS);
  const ms = (seconds: number) => ((seconds / started) * 1000).toFixed(2);
  return `machine ${(r.cpu.machineBusy * 100).toFixed(0)}% busy (${r.cpu.cores} cores); CPU per start: instances ${ms(r.cpu.processSeconds)} ms, PostgreSQL ${ms(r.cpu.postgresSeconds)} ms, callers and the rest ${ms(r.cpu.otherSeconds)} ms`;
}

async function stopInstance(instance: { process: ChildProcess }): Promise<void> {
  const exited = new Promise((resolve) => instance.process.once('exit', resolve));
  instance.process.kill('SIGTERM');
  await exited;
}

export default async function instancesBench(): Promise<void> {
  const adminUrl = process.env.PALKIT_BENCH_DATABASE_URL;
  if (!adminUrl) {
    console.log('skipped: set PALKIT_BENCH_DATABASE_URL to a PostgreSQL database (a throwaway one is created beside it)');
    return;
  }
  const pg = (await import('pg')).default;
  const database = `palkit_bench_instances_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
  const instances: Array<Awaited<ReturnType<typeof startInstance>>> = [];
  try {
    instances.push(await startInstance(databaseUrl));
    const [first] = instances;
    // A PAL with a trained face, written as the PAL and face areas write them; a deployment through the API.
    const seed = new pg.Client({ connectionString: databaseUrl });
    await seed.connect();
    await seed.query(`insert into faces (face_id, owner_id, face_name, status) values ('rbenchface', 1, 'Bench face', 'completed')`);
    await seed.query(`insert into pals (pal_id, owner_id, pal_name, default_face_id, definition) values ('pbenchpal', 1, 'Bench PAL', 'rbenchface', $1)`, [
      JSON.stringify({ pal_name: 'Bench PAL', system_prompt: 'Bench', pipeline_mode: 'echo', default_face_id: 'rbenchface' }),
    ]);
    await seed.end();
    const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
    const startPaths: string[] = [];
    for (let i = 0; i < DEPLOYMENTS; i++) {
      const created = (await (await fetch(`${first!.url}/v2/deployments`, { method: 'POST', headers, body: JSON.stringify({ pal_id: 'pbenchpal', channel: 'widget' }) })).json()) as { deployment_id: string };
      const activated = await fetch(`${first!.url}/v2/deployments/${created.deployment_id}`, { method: 'PATCH', headers, body: JSON.stringify([{ op: 'replace', path: '/status', value: 'active' }]) });
      if (activated.status !== 200) throw new Error(`could not activate the deployment: ${activated.status}`);
      startPaths.push(`/v2/deployments/${created.deployment_id}/start`);
    }
    const body = JSON.stringify({ conversational_context: 'bench visitor' });
    const load = { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS };
    // Caller i takes URL i mod n: alternating instances, and (spread) the deployments in turn.
    const urls = (paths: string[]) => paths.flatMap((path) => instances.map((instance) => `${instance.url}${path}`));

    // The CPU the run used (warm-up included, as the callers' process runs it too), to tell whether the
    // machine's cores or the service bound it.
    const measured = async (paths: string[]): Promise<LoadResult & { cpu: CpuUse }> => {
      const before = cpuSnapshot(instances.map((i) => i.process.pid!));
      const result = await runLoad(urls(paths), body, load);
      return { ...result, cpu: cpuUse(before, cpuSnapshot(instances.map((i) => i.process.pid!))) };
    };
    const oneSingle = await measured(startPaths.slice(0, 1));
    const oneSpread = await measured(startPaths);
    instances.push(await startInstance(databaseUrl));
    const twoSingle = await measured(startPaths.slice(0, 1));
    const twoSpread = await measured(startPaths);

    console.log(`${CONCURRENCY} concurrent callers in a separate process, ${SECONDS} s each after ${WARMUP_SECONDS} s warm-up; each instance a palkit serve process on PostgreSQL; Node ${process.version}`);
    const report = (label: string, r: LoadResult & { cpu: CpuUse }) => {
      console.log(formatLoad(label, r));
      console.log(`${''.padEnd(34)} ${cpuLine(r)}`);
    };
    report('one deployment, one instance', oneSingle);
    report('one deployment, two instances', twoSingle);
    report(`${DEPLOYMENTS} deployments, one instance`, oneSpread);
    report(`${DEPLOYMENTS} deployments, two instances`, twoSpread);
    console.log(`ratio (two / one): one deployment ${(twoSingle.perSecond / oneSingle.perSecond).toFixed(2)}x, ${DEPLOYMENTS} deployments ${(twoSpread.perSecond / oneSpread.perSecond).toFixed(2)}x`);
    for (const [label, one] of [['one deployment', oneSingle], [`${DEPLOYMENTS} deployments`, oneSpread]] as const) {
      const coresFor = (rate: number) => rate * cpuSecondsPerStart(one);
      console.log(`${label}: at one instance's CPU per start, 1.6x its rate (${(1.6 * one.perSecond).toFixed(0)} starts/s) takes ${coresFor(1.6 * one.perSecond).toFixed(1)} cores busy (callers included); this machine has ${one.cpu.cores}`);
    }
    for (const r of [oneSingle, twoSingle, oneSpread, twoSpread]) if ((r.statuses[200] ?? 0) !== r.requests) throw new Error(`some starts failed: ${JSON.stringify(r.statuses)}`);
  } finally {
    await Promise.all(instances.map(stopInstance));
    await admin.query(`drop database if exists ${database}`);
    await admin.end();
  }
}
