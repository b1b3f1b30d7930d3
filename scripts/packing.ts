// Packing the workspaces as a release would (`npm pack --workspaces`, after `npm run build`) and installing a
// tarball into an empty folder with nothing of this checkout's environment (test/realtime/e2e and scripts/size/report.ts).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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
 * `npm pack` of one workspace of `checkout` (this one unless told) into `into`, its `prepack` included (as
 * `npm pack -w <folder>` on a fresh clone runs it): the tarball's path. The build stamps this checkout's commit.
 */
export function packWithScripts(folder: string, into: string, checkout = repoRoot): string {
  const packed = run(npm, ['pack', '-w', folder, '--pack-destination', into, '--json', '--loglevel=error'], checkout, gitDirEnv(), 600_000);
  assert.equal(packed.status, 0, `${packed.stdout}\n${packed.stderr}`);
  // npm prints the prepack's own output before its JSON.
  const list = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[\n'))) as Array<{ filename: string }>;
  return join(into, list[0]!.filename);
}

/** GIT_DIR of this checkout, so that a build in a private copy stamps its commit (vite.config.ts, buildStamp); none outside git. */
function gitDirEnv(): Record<string, string> {
  try {
    const dir = execFileSync('git', ['rev-parse', '--absolute-git-dir'], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return { GIT_DIR: dir.trim() };
  } catch {
    return {};
  }
}

/** Folders a private checkout leaves out: what is built or installed, and what runs write. */
const NOT_SOURCES = new Set(['node_modules', 'dist', '.git', 'storybook-static', '.palkit']);

/**
 * A private copy of this checkout in `into`/checkout, for builds that would rewrite the built packages other
 * end-to-end files read meanwhile: the sources as a fresh clone has them (no dist/; with `built`, the
 * workspaces' dist/ copied too), and node_modules a folder of links to this checkout's packages, except the
 * workspaces' own links (palkit, @palkit/*), which point to the copy's workspaces. Returns the copy's root.
 */
export function privateCheckout(into: string, { built = false } = {}): string {
  const copy = join(into, 'checkout');
  cpSync(repoRoot, copy, { recursive: true, filter: (path) => !NOT_SOURCES.has(basename(path)) });
  const manifest = (folder: string) => JSON.parse(readFileSync(join(repoRoot, folder, 'package.json'), 'utf8'));
  const workspaces = new Map<string, string>(manifest('.').workspaces.map((folder: string) => [manifest(folder).name, folder]));
  if (built)
    for (const folder of workspaces.values())
      if (existsSync(join(repoRoot, folder, 'dist')))
        cpSync(join(repoRoot, folder, 'dist'), join(copy, folder, 'dist'), { recursive: true });
  // Each entry linked, a scope entry by entry when it holds a workspace; caches the builds write are the copy's own.
  const link = (name: string) => {
    const workspace = workspaces.get(name);
    symlinkSync(workspace ? join(copy, workspace) : join(repoRoot, 'node_modules', name), join(copy, 'node_modules', name));
  };
  mkdirSync(join(copy, 'node_modules'));
  for (const name of readdirSync(join(repoRoot, 'node_modules'))) {
    if (['.cache', '.vite', '.vite-temp'].includes(name)) continue;
    if (!name.startsWith('@') || ![...workspaces.keys()].some((w) => w.startsWith(`${name}/`))) {
      link(name);
      continue;
    }
    mkdirSync(join(copy, 'node_modules', name));
    for (const child of readdirSync(join(repoRoot, 'node_modules', name))) link(`${name}/${child}`);
  }
  return copy;
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
