// Prints gzip sizes of the built bundles and fails when a budget is exceeded:
//   script-tag first file (dist/cdn/palkit.js)                      ≤ 12 KB gzip
//   everything loaded before a call starts (daily-js excluded)      ≤ 40 KB gzip (the goal is 30)
//   daily-js only behind a dynamic import (fetched when a Daily room is joined)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const cdn = resolve('dist/cdn');
const gz = (file: string): number => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number): string => `${(bytes / KB).toFixed(2)} KB`;

/** Files a module pulls in with static imports (transitively), resolved relative to it. */
function staticClosure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const match of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g))
    staticClosure(resolve(dirname(entry), match[1]!), seen);
  return seen;
}

function dynamicTargets(files: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const file of files)
    for (const match of readFileSync(file, 'utf8').matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g)) out.add(resolve(dirname(file), match[1]!));
  return out;
}

function allJs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allJs(path) : path.endsWith('.js') ? [path] : [];
  });
}

const first = join(cdn, 'palkit.js');
const full = join(cdn, 'palkit-full.js');
const beforeCall = new Set([first, ...staticClosure(full)]);
const lazy = [...dynamicTargets(beforeCall)].filter((file) => !beforeCall.has(file));
const daily = allJs(cdn).filter((file) => /daily/i.test(file));

const rows: [string, number][] = [...beforeCall].map((file) => [relative('dist', file), gz(file)]);
for (const file of lazy) rows.push([`${relative('dist', file)} (on demand)`, gz(file)]);
console.log('gzip sizes (level 9)');
for (const [name, size] of rows) console.log(`  ${name.padEnd(48)} ${kb(size).padStart(10)}`);

const firstSize = gz(first);
const beforeCallSize = [...beforeCall].reduce((sum, file) => sum + gz(file), 0);
const npmSize = allJs(resolve('dist')).filter((f) => !f.startsWith(cdn) && !f.startsWith(resolve('dist/demo')) && !f.startsWith(resolve('dist/server'))).reduce((sum, file) => sum + gz(file), 0);
console.log(`\n  npm entry, all modules (lit, zod, daily-js external)   ${kb(npmSize)}`);
console.log(`  companion service (dist/server, node only)            ${kb(allJs(resolve('dist/server')).reduce((sum, file) => sum + gz(file), 0))}`);

const checks: [string, boolean, string][] = [
  ['script-tag first file ≤ 12 KB', firstSize <= 12 * KB, kb(firstSize)],
  ['loaded before a call (daily-js excluded) ≤ 40 KB', beforeCallSize <= 40 * KB, kb(beforeCallSize)],
  ['daily-js not loaded before a call', daily.length > 0 && daily.every((file) => !beforeCall.has(file)), daily.map((f) => `${relative('dist', f)} ${kb(gz(f))}`).join(', ') || 'missing'],
];
let failed = false;
console.log('\nbudgets');
for (const [name, ok, figure] of checks) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(50)} ${figure}`);
  failed ||= !ok;
}
if (failed) process.exit(1);
