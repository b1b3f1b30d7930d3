// Where the palkit package lives on disk: the source checkout (under tsx) or node_modules/palkit (the
// compiled dist/server/cli.js). Files the service serves or reads are found from here, never from the cwd.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder at or above `from` that holds a package.json. */
export function findPackageRoot(from: string): string {
  for (let dir = from; ; ) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`palkit: no package.json above ${from}`);
    dir = parent;
  }
}

export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
