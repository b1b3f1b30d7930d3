// Packing the workspaces as a release would (`npm pack --workspaces`, after `npm run build`) and installing a
// tarball into an empty folder with nothing of this checkout's environment (test/realtime/e2e and scripts/size/report.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../', import.meta.url));
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** The environment of an installed package: nothing of this checkout's (no tsx loader, no NODE_OPTIONS, no PALKIT_*). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  for (const k of Object.keys(env))
    if (k.startsWith('PALKIT_') || k === 'DATABASE_URL' || k === 'PORT' || k.startsWith('npm_')) delete env[k];
  return { ...env, ...extra };
}

export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}, timeoutMs = 240_000) {
  const result = spawnSync(command, args, {
    cwd,
    env: cleanEnv(env),
    encoding: 'utf8',
    timeout: timeoutMs,
    shell: process.platform === 'win32',
  });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', error: result.error };
}

/**
 * `npm pack --workspaces` into `into`: the tarball of each package by name. Scripts are skipped (the
 * packages' `prepack` would build again what `npm run build` just built).
 */
export function packWorkspaces(into: string): Map<string, string> {
  const packed = run(npm, ['pack', '--workspaces', '--ignore-scripts', '--pack-destination', into, '--json'], repoRoot);
  assert.equal(packed.status, 0, packed.stderr);
  const list = JSON.parse(packed.stdout) as Array<{ name: string; filename: string }>;
  return new Map(list.map((p) => [p.name, join(into, p.filename)]));
}

/**
 * `npm pack` of one workspace into `into`, its `prepack` included (as `npm pack -w <folder>` on a fresh
 * clone runs it): the tarball's path.
 */
export function packWithScripts(folder: string, into: string): string {
  const packed = run(npm, ['pack', '-w', folder, '--pack-destination', into, '--json', '--loglevel=error'], repoRoot, {}, 600_000);
  assert.equal(packed.status, 0, `${packed.stdout}\n${packed.stderr}`);
  // npm prints the prepack's own output before its JSON.
  const list = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[\n'))) as Array<{ filename: string }>;
  return join(into, list[0]!.filename);
}

/** `npm install` of the given specs into an app folder (made empty, with a bare package.json, the first time). */
export function installInto(app: string, specs: string[]): void {
  mkdirSync(app, { recursive: true });
  if (!existsSync(join(app, 'package.json')))
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'palkit-install-test', private: true, type: 'module' }));
  // The registry is reachable but slow: take what the local cache holds, ask for the rest.
  const installed = run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs], app);
  assert.equal(installed.status, 0, `npm install failed:\n${installed.stdout}\n${installed.stderr}`);
}

/** The packages npm installed (the lockfile npm keeps in node_modules), by name. */
export function installedPackages(app: string): string[] {
  const lock = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages).map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
}

/** Bytes of every file under a folder (what the install put on disk, before block rounding). */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
