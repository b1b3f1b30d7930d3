// The demo as `npm start` runs it (dist/demo-service/start.js, built first), started on a port of the test's
// own with its data in a folder of the test's own; ready once it has printed its URLs and keys.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait-for.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Demo {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  stop(): Promise<void>;
}

export async function startDemo(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Demo> {
  let output = '';
  const child = spawn(process.execPath, ['dist/demo-service/start.js', '--port', String(port)], {
    cwd: root,
    env: { ...process.env, PALKIT_DATA: dataDir, PALKIT_LOG: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`demo exited:\n${output}`);
      return output.includes('Demo API key');
    },
    { timeout: 120_000, interval: 200, what: () => `the demo to print its URLs; it printed:\n${output}` },
  );
  return {
    url: `http://localhost:${port}`,
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** This run's key for the demo site's backend routes, as printed with its URLs. */
export const demoKeyOf = (demo: Pick<Demo, 'output'>): string => /Demo site key\s+(\S+)/.exec(demo.output())![1]!;
