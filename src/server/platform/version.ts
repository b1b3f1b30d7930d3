// The service's version as its build carries it: the package's version and the commit it was built from,
// stamped into the bundle by the server build (vite.config.ts, `__PALKIT_BUILD__`). Run from source it is
// the package's version marked `-dev`, so a log line never passes a checkout off as a release.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

declare const __PALKIT_BUILD__: { version: string; commit: string | null } | undefined;

export interface BuildInfo {
  /** `0.1.0+1a2b3c4d5e6f` from a build of that commit, `0.1.0-dev` from source. */
  version: string;
  commit: string | null;
}

let info: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  if (info) return info;
  if (typeof __PALKIT_BUILD__ !== 'undefined' && __PALKIT_BUILD__) {
    const { version, commit } = __PALKIT_BUILD__;
    return (info = { version: commit ? `${version}+${commit}` : version, commit });
  }
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version?: string };
  return (info = { version: `${manifest.version ?? '0.0.0'}-dev`, commit: null });
}
