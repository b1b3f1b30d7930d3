// Where the runner page's script comes from: prebuilt beside the server's bundle (the server build writes
// it, vite.config.ts, so an installed @palkit/server carries it), or bundled from the checkout's source
// (src/palkit/client/runner/page.ts) with esbuild, a development dependency.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../platform/package-root.js';

/** The prebuilt page script's name in the server's dist/. */
export const RUNNER_PAGE_FILE = 'daily-runner-page.js';
const PREBUILT = join(packageRoot, 'dist', RUNNER_PAGE_FILE);
const SOURCE = join(packageRoot, '../palkit/client/runner/page.ts');

/** Whether this build can give the runner its page (checked before palkit's runner counts as on). */
export function runnerPageAvailable(): boolean {
  return existsSync(PREBUILT) || existsSync(SOURCE);
}

/** The page's script bundled from the checkout's source: one IIFE with daily-js inside (it sets window.palkitRunner). */
export async function bundleRunnerPage(): Promise<string> {
  if (!existsSync(SOURCE)) throw new Error('the runner page script is missing from this build');
  const { build } = await import('esbuild');
  const out = await build({ entryPoints: [SOURCE], bundle: true, format: 'iife', write: false, target: 'es2022', platform: 'browser' });
  return out.outputFiles[0]!.text;
}

/** The page's script: the prebuilt one, else bundled from the source. */
export async function runnerPageScript(): Promise<string> {
  return existsSync(PREBUILT) ? readFile(PREBUILT, 'utf8') : bundleRunnerPage();
}
