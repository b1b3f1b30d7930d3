// Where the @palkit/server package lives on disk: src/server in a checkout (under tsx, or bundled into the
// demo service at dist/demo-service/start.js), node_modules/@palkit/server when installed (dist/cli.js).
// Files the service serves or reads are found from here, never from the cwd.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_PACKAGE = '@palkit/server';
/** The server's folder inside the repository (a workspace of the root package.json). */
const SERVER_WORKSPACE = 'src/server';

/** The nearest folder at or above `from` that holds a package.json. */
export function findPackageRoot(from: string): string {
  for (let dir = from; ;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`palkit: no package.json above ${from}`);
    dir = parent;
  }
}

function readManifest(dir: string): { name?: unknown; workspaces?: unknown } {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; workspaces?: unknown };
  } catch {
    return {};
  }
}

/**
 * The @palkit/server package folder for code at `from`: the nearest folder above named so in its
 * package.json, or, for a bundle that lives elsewhere in the repository (the demo service), the
 * server workspace of the repository root above it.
 */
export function findServerRoot(from: string): string {
  for (let dir = from; ;) {
    const manifest = readManifest(dir);
    if (manifest.name === SERVER_PACKAGE) return dir;
    if (Array.isArray(manifest.workspaces) && manifest.workspaces.includes(SERVER_WORKSPACE)) return join(dir, SERVER_WORKSPACE);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`palkit: no ${SERVER_PACKAGE} package above ${from}`);
    dir = parent;
  }
}

/** The @palkit/server package folder (src/server in a checkout). */
export const packageRoot = findServerRoot(dirname(fileURLToPath(import.meta.url)));

/**
 * The browser package's built script tag: in a checkout the palkit workspace's own build (always the
 * newest), in an installed @palkit/server the copy its build carries in dist/cdn.
 */
export function scriptTagDir(serverRoot: string): string {
  const sibling = join(serverRoot, '..', 'palkit');
  const inCheckout = readManifest(sibling).name === 'palkit' && existsSync(join(serverRoot, '..', 'protocol', 'package.json'));
  return inCheckout ? join(sibling, 'dist', 'cdn') : join(serverRoot, 'dist', 'cdn');
}
