// Starts the real service as a child process (`src/server/app/cli.ts serve`, or its bundle) on a free port and waits for /healthz.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migratedPgliteImageFile, seedDataFolder } from './pglite-image.js';

import { freePort } from './engines.mjs';

/** A port free on loopback now (engines.mjs's, shared with the browser suite's launchers). */
export { freePort };

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown code runs (as in a crash). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServiceProcessOptions {
  port?: number;
  command?: 'serve' | 'start';
  /** More node options before the script (e.g. `--import` a module that plants faults). */
  nodeArgs?: string[];
}

export async function startServiceProcess(env: Record<string, string>, options: ServiceProcessOptions = {}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  // A PGlite folder of its own, or memory, starts from the migrated image (pglite-image.ts), as in-process
  // services do: initdb and the 26 migrations took 2.3 of a quiet start's 3.0 s (4-5 s on a busy machine).
  const embedded = env.PALKIT_DATA && !(env.DATABASE_URL ?? process.env.DATABASE_URL);
  if (embedded && env.PALKIT_DATA !== 'memory') await seedDataFolder(env.PALKIT_DATA!);
  if (embedded && env.PALKIT_DATA === 'memory' && !('PALKIT_PGLITE_IMAGE' in env))
    env = { ...env, PALKIT_PGLITE_IMAGE: await migratedPgliteImageFile() };
  let output = '';
  // The built bundle where the real-time runner built it this run (PALKIT_SERVICE_BUNDLE=1): no TypeScript to
  // compile at each start (0.95 s to healthy against 1.65 s through tsx, quiet). Not with node options: a
  // preload that plants faults or keeps rigs finds its modules by their source paths.
  const bundle = process.env.PALKIT_SERVICE_BUNDLE === '1' && !options.nodeArgs?.length;
  const child = spawn(
    process.execPath,
    [
      ...(bundle ? [] : ['--import', 'tsx', ...(options.nodeArgs ?? [])]),
      bundle ? 'src/server/dist/cli.js' : 'src/server/app/cli.ts',
      options.command ?? 'serve',
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
    ],
    {
      cwd: root,
      // Tests start many calls from one address and join few of them: the front door's defaults are off
      // unless a test sets them.
      env: {
        ...process.env,
        PALKIT_LOG: 'error',
        PALKIT_START_RATE_PER_MINUTE: '0',
        PALKIT_MAX_UNJOINED_CALLS: '0',
        PALKIT_DAILY_RUNNER_PAGES: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  // Two minutes: on a machine shared by several test runs (load ~20 on 2 cores) tsx alone took 55 s.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(url + '/healthz')).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = () =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
  return {
    url,
    port,
    child,
    output: () => output,
    async kill() {
      child.kill('SIGKILL');
      await exited();
    },
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited();
      clearTimeout(timer);
    },
  };
}
