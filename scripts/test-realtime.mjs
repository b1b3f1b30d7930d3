// `npm run test:realtime`: the real-time tier, one file at a time (each measures real time, so nothing else of
// ours runs beside it), each failed file tried once more (a pass on the second try is printed as such, so a
// flaky file stays visible), and each file's time printed. The files assert ratios to a quiet baseline they
// measure in the same run and print their figures, which are kept in .palkit/results and compared with the run
// before at the end (scripts/report.mjs; `npm run report` prints it again). Arguments: files or folders to run (default: all of
// test/realtime). The end-to-end files run against the built packages and Storybook, built once first.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { report } from './report.mjs';
import { figuresIn, saveFigures } from './results.mjs';
import { databaseLeg, isRealtime, kindOf, realtimeFiles } from './test-tiers-files.mjs';

const REPORTERS = [
  '--test-reporter=tap',
  '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/failures-reporter.mjs',
  '--test-reporter-destination=stdout',
];
const args = process.argv.slice(2).map((a) => a.replace(/\/$/, ''));
const all = realtimeFiles();
const files = args.length === 0 ? all : args.flatMap((a) => (statSync(a).isDirectory() ? all.filter((f) => f.startsWith(`${a}/`)) : [a]));
const strays = files.filter((f) => !isRealtime(f));
if (strays.length > 0) console.warn(`test-realtime: not real-time files (they belong to the gate): ${strays.join(', ')}`);

const started = Date.now();
const seconds = (from) => Math.round((Date.now() - from) / 1000);
const results = [];
/** A command's run, its output shown as it goes and kept (the figures are read from it); resolves to whether it passed. */
let output = '';
const run = (command, commandArgs) =>
  new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (process.stdout.write(d), (output += d)));
    child.stderr.on('data', (d) => (process.stderr.write(d), (output += d)));
    child.on('close', (code) => resolve(code === 0));
  });

if (files.some((f) => kindOf(f) === 'e2e')) {
  const building = Date.now();
  console.log('\n=== real-time tier: building the packages and Storybook for the end-to-end files ===');
  // PALKIT_PACKAGES_BUILT=1: `npm test` built them in the gate's size step minutes ago; Storybook is built here.
  const packages = process.env.PALKIT_PACKAGES_BUILT === '1' || (await run('npm', ['run', 'build']));
  const built = packages && (await run('npm', ['run', 'build-storybook']));
  results.push({ file: '(build + build-storybook)', seconds: seconds(building), outcome: built ? 'passed' : 'FAILED' });
  if (!built) finish();
}

for (const file of files) {
  const kind = kindOf(file);
  const once = () => {
    if (kind === 'browser') return run(process.execPath, ['scripts/test-browser.mjs', '--files', file]);
    if (kind === 'e2e') return run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...REPORTERS, file]);
    // A file that runs on one database leg only (it skips itself on the other) starts that leg alone.
    const leg = process.env.PALKIT_TEST_DATABASE_URL ? databaseLeg(file) : null;
    return run(process.execPath, ['scripts/test-server.mjs', '--one-at-a-time', ...(leg ? [`--leg=${leg}`] : []), file]);
  };
  const from = Date.now();
  console.log(`\n=== real-time: ${file} ===`);
  output = '';
  let outcome = (await once()) ? 'passed' : null;
  if (!outcome) {
    console.log(`\n=== real-time: ${file} failed; its one retry ===`);
    outcome = (await once()) ? 'passed on retry' : 'FAILED';
  }
  saveFigures(file, figuresIn(output), outcome);
  results.push({ file, seconds: seconds(from), outcome });
}
finish();

function finish() {
  console.log(`\n${report()}`);
  console.log('\nreal-time tier, file by file:');
  for (const r of results) console.log(`  ${String(r.seconds).padStart(5)} s  ${r.outcome.padEnd(15)} ${r.file}`);
  const failed = results.filter((r) => r.outcome === 'FAILED').length;
  const retried = results.filter((r) => r.outcome === 'passed on retry').length;
  console.log(`real-time tier: ${results.length} steps, ${failed} failed, ${retried} passed only on retry, ${seconds(started)} s`);
  process.exit(failed > 0 ? 1 : 0);
}
