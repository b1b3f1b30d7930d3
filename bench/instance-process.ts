// A service instance as an operator runs it: its own `palkit serve` process on a free loopback port,
// ready once /readyz answers 200. Shared by the benches that measure a whole instance from outside.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../src/server/app/cli.ts', import.meta.url));

export interface InstanceProcess {
  url: string;
  process: ChildProcess;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts `palkit serve` with `env` over this process's environment (PALKIT_PUBLIC_URL is its own address).
 * `spawned` runs as soon as the process exists, before it has done any work: the place to put it under a
 * CPU budget so that its start and the helper processes it starts later are held to it too. `nodeArgs`
 * go to Node before the rest (e.g. `--cpu-prof`).
 */
export async function startInstance(
  env: Record<string, string>,
  spawned?: (pid: number) => void,
  nodeArgs: string[] = [],
): Promise<InstanceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', cli, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    env: { ...process.env, PALKIT_PUBLIC_URL: url, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A bench that fails or is stopped must not leave its instance running.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  if (spawned && child.pid !== undefined) spawned(child.pid);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the instance exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, process: child };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the instance did not become ready within 120 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stopInstance(instance: InstanceProcess): Promise<void> {
  if (instance.process.exitCode !== null || instance.process.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.process.once('exit', resolve));
  instance.process.kill('SIGTERM');
  await exited;
}
