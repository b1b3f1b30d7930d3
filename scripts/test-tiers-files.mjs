// Which test files belong to which tier (docs/contributing.md, "Two tiers"). The gate's files run on a clock
// the test controls; the real-time tier's files measure real time (floods, voices, heard latency and lip
// sync, the three-engine walks, packaging and install) and run one at a time after the gate.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A real-time file: anything under test/realtime, and — until they are moved there — chaos-* files
 * under test/server (at any depth) and test/e2e files (branches written before the move still add them). */
export function isRealtime(file) {
  const f = file.replace(/^\.\//, '');
  return f.startsWith('test/realtime/') || /^test\/server\/(?:.*\/)?chaos-[^/]*\.test\.ts$/.test(f) || f.startsWith('test/e2e/');
}

/** How a real-time file runs: 'browser' (web-test-runner, every engine), 'e2e' (node:test against the built
 * packages) or 'node' (node:test, on PGlite and on PostgreSQL when set, like the server suite). */
export function kindOf(file) {
  const f = file.replace(/^\.\//, '');
  if (f.startsWith('test/realtime/browser/')) return 'browser';
  if (f.startsWith('test/realtime/e2e/') || f.startsWith('test/e2e/')) return 'e2e';
  return 'node';
}

/** Every real-time file in the tree, node files first (they are quickest), then browser, then e2e. */
export function realtimeFiles() {
  const order = { node: 0, browser: 1, e2e: 2 };
  const found = [
    ...walk('test/realtime'),
    ...walk('test/server'),
    ...walk('test/e2e'),
  ].filter((f) => f.endsWith('.test.ts') && isRealtime(f));
  return found.sort((a, b) => order[kindOf(a)] - order[kindOf(b)] || a.localeCompare(b));
}

/** Every file under dir, at any depth, as a path from the repository root (sorted, so runs list the same order). */
export function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)])).sort();
}
