// Start throughput with one and with two service instances on one PostgreSQL: each instance is its own
// `palkit serve` process (as an operator runs them), and 50 callers POST the public start, spread over
// the instances as a load balancer would. All callers starting one deployment (its starts share the
// deployment's row, so they are written in batches under its lock), and spread over ten deployments, as
// many customers' pages are. Each in two rounds: every instance with the whole machine, then every
// instance held to a CPU budget of its own (a cgroup), as containers run them, so that a second instance
// brings CPU of its own. Needs PALKIT_BENCH_DATABASE_URL (a throwaway database is created beside the one
// it names, and dropped afterwards).
import { availableParallelism } from 'node:os';
import { capFor } from './cpu-cap.js';
import { cpuSnapshot, cpuUse, type CpuUse } from './cpu.js';
import { startInstance, stopInstance, type InstanceProcess } from './instance-process.js';
import { formatLoad, runLoad, type LoadResult } from './load.js';

const CONCURRENCY = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const KEY = 'bench-key';
const DEPLOYMENTS = 10;
/**
 * Each instance's CPU budget in the second round (0: no second round). By default a fifth of the
 * machine's cores (at most one), so that two instances, PostgreSQL and the callers all fit on it.
 */
const INSTANCE_CPUS = Number(process.env.BENCH_INSTANCE_CPUS ?? Math.min(1, availableParallelism() / 5));

/** One `palkit serve` process on the database. */
function startOnDatabase(databaseUrl: string): Promise<InstanceProcess> {
  // Every caller is on this machine: one address, which the front door's per-address start rate and
  // never-joined cap would refuse after a handful. What is measured is the start's own cost, as start.bench.ts.
  return startInstance({
    DATABASE_URL: databaseUrl,
    PALKIT_API_KEYS: `${KEY}:1`,
    PALKIT_SECRET: 'bench-secret-shared-by-the-instances',
    PALKIT_LOG: 'error',
    PALKIT_START_RATE_PER_MINUTE: '0',
    PALKIT_MAX_UNJOINED_CALLS: '0',
  });
}

type Measured = LoadResult & { cpu: CpuUse };

/** CPU seconds the run used per start answered, over the whole machine (warm-up starts included). */
function cpuSecondsPerStart(r: Measured): number {
  const started = r.requests * ((SECONDS + WARMUP_SECONDS) / SECONDS);
  return (r.cpu.processSeconds + r.cpu.postgresSeconds + r.cpu.otherSeconds) / started;
}

function cpuLine(r: Measured): string {
  const started = r.requests * ((SECONDS + WARMUP_SECONDS) / SECONDS);
  const ms = (seconds: number) => ((seconds / started) * 1000).toFixed(2);
  return `machine ${(r.cpu.machineBusy * 100).toFixed(0)}% busy (${r.cpu.cores} cores); CPU per start: instances ${ms(r.cpu.processSeconds)} ms, PostgreSQL ${ms(r.cpu.postgresSeconds)} ms, callers and the rest ${ms(r.cpu.otherSeconds)} ms`;
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
  const instances: InstanceProcess[] = [];
  try {
    instances.push(await startOnDatabase(databaseUrl), await startOnDatabase(databaseUrl));
    const [first] = instances;
    // A PAL with a trained face, written as the PAL and face areas write them; a deployment through the API.
    const seed = new pg.Client({ connectionString: databaseUrl });
    await seed.connect();
    await seed.query(`insert into faces (face_id, owner_id, face_name, status) values ('rbenchface', 1, 'Bench face', 'completed')`);
    await seed.query(
      `insert into pals (pal_id, owner_id, pal_name, default_face_id, definition) values ('pbenchpal', 1, 'Bench PAL', 'rbenchface', $1)`,
      [JSON.stringify({ pal_name: 'Bench PAL', system_prompt: 'Bench', pipeline_mode: 'echo', default_face_id: 'rbenchface' })],
    );
    await seed.end();
    const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
    const startPaths: string[] = [];
    for (let i = 0; i < DEPLOYMENTS; i++) {
      const created = (await (
        await fetch(`${first!.url}/v2/deployments`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ pal_id: 'pbenchpal', channel: 'widget' }),
        })
      ).json()) as { deployment_id: string };
      const activated = await fetch(`${first!.url}/v2/deployments/${created.deployment_id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify([{ op: 'replace', path: '/status', value: 'active' }]),
      });
      if (activated.status !== 200) throw new Error(`could not activate the deployment: ${activated.status}`);
      startPaths.push(`/v2/deployments/${created.deployment_id}/start`);
    }
    const body = JSON.stringify({ conversational_context: 'bench visitor' });
    const load = { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS };
    // Both instances run throughout; a one-instance run sends every caller to the first. Caller i takes
    // URL i mod n: alternating instances, and (ten deployments) the deployments in turn.
    const urls = (paths: string[], serving: number) =>
      paths.flatMap((path) => instances.slice(0, serving).map((instance) => `${instance.url}${path}`));
    // The CPU the run used (warm-up included, as the callers' process runs it too), to tell whether the
    // machine's cores or the service bound it.
    const measured = async (paths: string[], serving: number): Promise<Measured> => {
      const pids = instances.slice(0, serving).map((i) => i.process.pid!);
      const before = cpuSnapshot(pids);
      const result = await runLoad(urls(paths, serving), body, load);
      // A refused start is not a start: a rate of 429s measured nothing.
      const refused = Object.entries(result.statuses).filter(([status]) => status !== '200');
      if (refused.length) throw new Error(`starts were refused (${JSON.stringify(result.statuses)}): this run measured no starts`);
      return { ...result, cpu: cpuUse(before, cpuSnapshot(pids)) };
    };
    const runs = async () => {
      const results: Array<{ label: string; one: Measured; two: Measured }> = [];
      for (const [label, paths] of [
        ['one deployment', startPaths.slice(0, 1)],
        [`${DEPLOYMENTS} deployments`, startPaths],
      ] as const) {
        results.push({ label, one: await measured(paths, 1), two: await measured(paths, 2) });
      }
      return results;
    };

    console.log(
      `${CONCURRENCY} concurrent callers in a separate process, ${SECONDS} s each after ${WARMUP_SECONDS} s warm-up; each instance a palkit serve process on PostgreSQL; Node ${process.version}`,
    );
    const report = (heading: string, results: Awaited<ReturnType<typeof runs>>) => {
      console.log(heading);
      for (const { label, one, two } of results) {
        for (const [count, r] of [
          ['one instance', one],
          ['two instances', two],
        ] as const) {
          console.log(formatLoad(`${label}, ${count}`, r));
          console.log(`${''.padEnd(34)} ${cpuLine(r)}`);
        }
      }
      console.log(
        `ratio (two / one): ${results.map(({ label, one, two }) => `${label} ${(two.perSecond / one.perSecond).toFixed(2)}x`).join(', ')}`,
      );
    };
    const uncapped = await runs();
    report('Each instance with the whole machine:', uncapped);
    for (const { label, one } of uncapped) {
      const cores = 1.6 * one.perSecond * cpuSecondsPerStart(one);
      console.log(
        `${label}: at one instance's CPU per start, 1.6x its rate (${(1.6 * one.perSecond).toFixed(0)} starts/s) keeps ${cores.toFixed(1)} cores busy (callers included); this machine has ${one.cpu.cores}`,
      );
    }
    // As containers run them: each instance with a CPU budget of its own, so that a second instance
    // brings its own CPU, as a second machine or pod would (PostgreSQL and the callers stay uncapped).
    let capped: Awaited<ReturnType<typeof runs>> = [];
    const caps = INSTANCE_CPUS > 0 ? instances.map((instance, i) => capFor(`palkit_bench_${process.pid}_${i}`, INSTANCE_CPUS)) : [];
    try {
      if (caps.length && caps.every(Boolean)) {
        instances.forEach((instance, i) => caps[i]!.add(instance.process.pid!));
        capped = await runs();
        report(`Each instance limited to ${INSTANCE_CPUS} CPU (a cgroup's CFS quota, as a container's CPU limit):`, capped);
      } else if (INSTANCE_CPUS > 0) console.log('(no writable cgroup here: the instances were not also measured with a CPU limit each)');
    } finally {
      await Promise.all(instances.map(stopInstance));
      for (const cap of caps) cap?.remove();
    }
    for (const { one, two } of [...uncapped, ...capped])
      for (const r of [one, two])
        if ((r.statuses[200] ?? 0) !== r.requests) throw new Error(`some starts failed: ${JSON.stringify(r.statuses)}`);
  } finally {
    await Promise.all(instances.map(stopInstance));
    await admin.query(`drop database if exists ${database}`);
    await admin.end();
  }
}
