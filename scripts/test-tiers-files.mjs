// Which test files belong to which tier (docs/contributing.md, "Two tiers"). The gate's files run on a clock
// the test controls; the real-time tier's files measure real time (floods, voices, heard latency and lip
// sync, the three-engine walks, packaging and install) and run one at a time after the gate.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A real-time file: anything under test/realtime. */
export function isRealtime(file) {
  return file.replace(/^\.\//, '').startsWith('test/realtime/');
}

/**
 * Real-time files that assert no time (no latency, rate or deadline figure; only waits bounded to fail, not
 * to measure) and leave the built packages alone: the real-time runner runs them UNTIMED_AT_ONCE at a time, in
 * a group nothing timed runs beside. Each starts its own service, site and browser on ports of its own
 * (face-look-calibration: the face models on one core, a minute of WebAssembly, no service; demo-face: its
 * demo process, its 8 s recordings and their training; chaos-database: a PostgreSQL of its own on a free port,
 * its waits only bounds to fail; install and packages: their builds and packs in a private copy of the checkout,
 * scripts/packing.ts privateCheckout, their tarballs installed into temporary folders). A file that starts to
 * measure time leaves this list. visitor-walks is not here: it walks three pages at once itself, and beside
 * another file its walks took three times as long and missed their 10 s bounds.
 */
export const UNTIMED = [
  // The longest first, so that no long one starts last.
  'test/realtime/face-look-calibration.test.ts',
  'test/realtime/e2e/install.test.ts',
  'test/realtime/e2e/storybook.test.ts',
  'test/realtime/e2e/deployment-flows.test.ts',
  'test/realtime/e2e/demo.test.ts',
  'test/realtime/e2e/demo-face.test.ts',
  'test/realtime/e2e/live-conversation.test.ts',
  'test/realtime/daily-pages.test.ts',
  'test/realtime/chaos-database.test.ts',
  'test/realtime/e2e/reload-rejoin.test.ts',
  'test/realtime/e2e/strict-csp.test.ts',
  'test/realtime/e2e/packages.test.ts',
  'test/realtime/e2e/room-page.test.ts',
  'test/realtime/e2e/first-pal.test.ts',
  'test/realtime/e2e/service-restart.test.ts',
];
export const UNTIMED_AT_ONCE = Math.max(1, Number(process.env.PALKIT_UNTIMED_AT_ONCE) || 2);

export function isUntimed(file) {
  return UNTIMED.includes(file.replace(/^\.\//, ''));
}

/** How a real-time file runs: 'browser' (web-test-runner, every engine), 'e2e' (node:test against the built
 * packages) or 'node' (node:test, on PGlite and on PostgreSQL when set, like the server suite). */
export function kindOf(file) {
  const f = file.replace(/^\.\//, '');
  if (f.startsWith('test/realtime/browser/')) return 'browser';
  if (f.startsWith('test/realtime/e2e/')) return 'e2e';
  return 'node';
}

/**
 * The one database leg a node file (the server suite's or a real-time one) runs on, when it says so itself: 'PGlite' when each of its
 * top-level describe/it/test calls (the least indented) is skipped with `onPostgres && '…'` (or a `skip` set so), 'PostgreSQL' when
 * each is skipped with `!onPostgres && '…'` (or `onPostgres ? … : '…'`, `!onPostgres ? '…' : …`), else null (both legs, as the server
 * suite runs them). The runners then start only that leg: the other would load the file (and the service it
 * imports, ~5 s) only to print a skip. A gate file whose subject is not the database (rendering, training,
 * the HTTP surface) skips the PostgreSQL leg so, with the reason; storage, queries, transactions, restarts,
 * migrations and concurrency stay on both.
 */
export function databaseLeg(file) {
  const text = readFileSync(file, 'utf8');
  const uses = text.split('\n').filter((line) => /\bonPostgres\b/.test(line) && !/^\s*import\b/.test(line));
  const legOf = (line) =>
    /!onPostgres\s*&&|\bskip\b.*=\s*onPostgres\s*\?|\bskip\b\s*[:=]\s*!onPostgres\s*\?/.test(line)
      ? 'PostgreSQL'
      : /\bskip\b\s*[:=]\s*onPostgres\s*&&/.test(line)
        ? 'PGlite'
        : null;
  const legs = new Set(uses.map(legOf));
  // The top-level calls: those least indented (a describe may sit in a loop over voices). A call's head runs
  // from its line to where its callback starts: Prettier puts a long one's name and options on lines of their own.
  const lines = text.split('\n');
  const calls = lines.flatMap((line, i) => (/^\s*(?:describe|it|test)\(/.test(line) ? [i] : []));
  const indent = (i) => lines[i].search(/\S/);
  const top = Math.min(...calls.map(indent));
  const head = (i) => {
    const end = lines.findIndex((line, j) => j >= i && /=>|\bfunction\b/.test(line));
    return lines.slice(i, end < 0 ? i + 1 : end + 1).join('\n');
  };
  if (
    legs.size !== 1 ||
    legs.has(null) ||
    calls.length === 0 ||
    !calls.filter((i) => indent(i) === top).every((i) => /\bskip\b/.test(head(i)))
  )
    return null;
  return [...legs][0];
}

/** Every real-time file in the tree, node files first (they are quickest), then browser, then e2e. */
export function realtimeFiles() {
  const order = { node: 0, browser: 1, e2e: 2 };
  const found = walk('test/realtime').filter((f) => f.endsWith('.test.ts'));
  return found.sort((a, b) => order[kindOf(a)] - order[kindOf(b)] || a.localeCompare(b));
}

/** Every file under dir, at any depth, as a path from the repository root (sorted, so runs list the same order). */
export function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]))
    .sort();
}
