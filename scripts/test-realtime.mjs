// `npm run test:realtime`: the real-time tier, one file at a time (each measures real time, so nothing else of
// ours runs beside it; the few files that measure none run side by side in a group of their own,
// scripts/test-tiers-files.mjs's UNTIMED), each failed file tried once more (a pass on the second try is printed as such, so a
// flaky file stays visible), and each file's time printed. The files assert ratios to a quiet baseline they
// measure in the same run and print their figures, which are kept in .palkit/results and compared with the run
// before at the end (scripts/report.mjs; `npm run report` prints it again). Arguments: files or folders to run (default: all of
// test/realtime); --untimed runs only the untimed group, --timed only the rest. The end-to-end files run against the built
// packages (and Storybook, for its own file), built once first.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './report.mjs';
import { figuresIn, saveFigures } from './results.mjs';
import { UNTIMED, UNTIMED_AT_ONCE, databaseLeg, isRealtime, isUntimed, kindOf, realtimeFiles } from './test-tiers-files.mjs';

const REPORTERS = [
  '--test-reporter=tap',
  '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/failures-reporter.mjs',
  '--test-reporter-destination=stdout',
];
const part = process.argv.includes('--untimed') ? 'untimed' : process.argv.includes('--timed') ? 'timed' : 'all';
const args = process.argv
  .slice(2)
  .filter((a) => a !== '--untimed' && a !== '--timed')
  .map((a) => a.replace(/\/$/, ''));
const all = realtimeFiles();
const files = (
  args.length === 0 ? all : args.flatMap((a) => (statSync(a).isDirectory() ? all.filter((f) => f.startsWith(`${a}/`)) : [a]))
).filter((f) => part === 'all' || (part === 'untimed') === isUntimed(f));
const strays = files.filter((f) => !isRealtime(f));
if (strays.length > 0) console.warn(`test-realtime: not real-time files (they belong to the gate): ${strays.join(', ')}`);

// Faces trained in this run: a step the face trainer made once (the same media, request and trainer sources)
// is answered from here by the next file that trains it (test/helpers/kept-rigs-preload.ts); gone at the end.
// One given by the caller (scripts/test-tiers.mjs, for both parts of `npm test`) is the caller's to delete.
if (!process.env.PALKIT_TEST_RIG_CACHE) {
  const rigs = mkdtempSync(join(tmpdir(), 'palkit-rigs-'));
  process.env.PALKIT_TEST_RIG_CACHE = rigs;
  process.on('exit', () => rmSync(rigs, { recursive: true, force: true }));
}

const started = Date.now();
const seconds = (from) => Math.round((Date.now() - from) / 1000);
const results = [];
/** A command's run, its output shown as it goes (or, `held`, kept and printed whole at its end, when files run side by side); resolves to whether it passed and its output (the figures are read from it). */
const run = (command, commandArgs, held = false) =>
  new Promise((resolve) => {
    let output = '';
    const child = spawn(command, commandArgs, { stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (held || process.stdout.write(d), (output += d)));
    child.stderr.on('data', (d) => (held || process.stderr.write(d), (output += d)));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });

if (files.some((f) => kindOf(f) === 'e2e')) {
  const building = Date.now();
  const storybook = files.some((f) => f.endsWith('e2e/storybook.test.ts'));
  console.log(`\n=== real-time tier: building the packages${storybook ? ' and Storybook' : ''} for the end-to-end files ===`);
  // PALKIT_PACKAGES_BUILT=1: `npm test` built them in the gate's size step minutes ago; Storybook is built here.
  const packages = process.env.PALKIT_PACKAGES_BUILT === '1' || (await run('npm', ['run', 'build'])).ok;
  const built = packages && (!storybook || (await run('npm', ['run', 'build-storybook'])).ok);
  results.push({
    file: `(build${storybook ? ' + build-storybook' : ''})`,
    seconds: seconds(building),
    outcome: built ? 'passed' : 'FAILED',
  });
  if (!built) finish();
  process.env.PALKIT_SERVICE_BUNDLE = '1';
}
// Where the packages are built this run (above, or by `npm test`'s size step), the files start the service from
// its bundle rather than through tsx (test/helpers/process.ts); a run of node files alone keeps to the sources.
if (process.env.PALKIT_PACKAGES_BUILT === '1') {
  process.env.PALKIT_SERVICE_BUNDLE = '1';
}

/**
 * One file, and its one retry when it fails; its figures saved, its time and outcome listed. Given `deferred`
 * (a file run beside another), a failed first try is put there instead, to be retried once nothing runs beside it.
 */
async function runFile(file, held, deferred) {
  const once = () => runOnce(file, held);
  const from = Date.now();
  const heading = `\n=== real-time: ${file} ===\n`;
  if (!held) process.stdout.write(heading);
  let { ok, output } = await once();
  let shown = held ? heading + output : '';
  let outcome = ok ? 'passed' : null;
  if (!outcome && deferred) {
    if (held) process.stdout.write(shown);
    deferred.push({ file, seconds: seconds(from) });
    return;
  }
  if (!outcome) {
    const retry = `\n=== real-time: ${file} failed; its one retry ===\n`;
    if (!held) process.stdout.write(retry);
    ({ ok, output } = await once());
    shown += held ? retry + output : '';
    outcome = ok ? 'passed on retry' : 'FAILED';
  }
  if (held) process.stdout.write(shown);
  saveFigures(file, figuresIn(output), outcome);
  results.push({ file, seconds: seconds(from), outcome });
}

/** A file failed beside another: its one retry, alone. */
async function retryAlone({ file, seconds: first }) {
  const from = Date.now();
  process.stdout.write(`\n=== real-time: ${file} failed beside another file; its one retry, alone ===\n`);
  const { ok, output } = await runOnce(file, false);
  const outcome = ok ? 'passed on retry' : 'FAILED';
  saveFigures(file, figuresIn(output), outcome);
  results.push({ file, seconds: first + seconds(from), outcome });
}

/** One run of a file. */
function runOnce(file, held) {
  const kind = kindOf(file);
  if (kind === 'browser') return run(process.execPath, ['scripts/test-browser.mjs', '--files', file], held);
  if (kind === 'e2e') return run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...REPORTERS, file], held);
  // A file that runs on one database leg only (it skips itself on the other) starts that leg alone.
  const leg = process.env.PALKIT_TEST_DATABASE_URL ? databaseLeg(file) : null;
  return run(process.execPath, ['scripts/test-server.mjs', '--one-at-a-time', ...(leg ? [`--leg=${leg}`] : []), file], held);
}

// The files that measure no time run side by side, UNTIMED_AT_ONCE at a time, in a group of their own (at the
// place of the first of them; nothing timed runs beside it); every other file runs alone.
const untimed = UNTIMED.filter((f) => files.some((file) => file.replace(/^\.\//, '') === f));
for (const file of files) {
  if (!isUntimed(file)) {
    await runFile(file, false);
    continue;
  }
  if (file !== files.find(isUntimed)) continue;
  const from = Date.now();
  const queue = [...untimed];
  console.log(
    `\n=== real-time: ${untimed.length} files that measure no time, ${UNTIMED_AT_ONCE} at a time (each printed whole when it ends) ===`,
  );
  // Side by side, a file's failure may be its neighbour's load (two browser files: load 21-26 on two cores, page
  // loads past 10 s): its retry then runs alone, after the group.
  const failed = UNTIMED_AT_ONCE > 1 ? [] : undefined;
  await Promise.all(
    Array.from({ length: UNTIMED_AT_ONCE }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await runFile(next, UNTIMED_AT_ONCE > 1, failed);
    }),
  );
  for (const first of failed ?? []) await retryAlone(first);
  results.push({ file: `(the ${untimed.length} files above, side by side)`, seconds: seconds(from), outcome: 'group' });
}
finish();

function finish() {
  console.log(`\n${report()}`);
  console.log('\nreal-time tier, file by file:');
  for (const r of results) console.log(`  ${String(r.seconds).padStart(5)} s  ${r.outcome.padEnd(15)} ${r.file}`);
  const failed = results.filter((r) => r.outcome === 'FAILED').length;
  const retried = results.filter((r) => r.outcome === 'passed on retry').length;
  console.log(
    `real-time tier${part === 'all' ? '' : ` (its ${part} part)`}: ${results.filter((r) => r.outcome !== 'group').length} steps, ${failed} failed, ${retried} passed only on retry, ${seconds(started)} s`,
  );
  process.exit(failed > 0 ? 1 : 0);
}
