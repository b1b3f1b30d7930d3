// `npm run test:realtime`: the real-time tier, one file at a time (each measures real time, so nothing else of
// ours runs beside it), each failed file tried once more (a pass on the second try is printed as such, so a
// flaky file stays visible), and each file's time printed. The files assert ratios to a quiet baseline they
// measure in the same run and print their figures. Arguments: files or folders to run (default: all of
// test/realtime, plus test/server/**/chaos-* and test/e2e files not yet moved there). The end-to-end files run
// against the built packages and Storybook, built once first.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { databaseLeg, isRealtime, kindOf, realtimeFiles } from './test-tiers-files.mjs';

const REPORTERS = ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/failures-reporter.mjs', '--test-reporter-destination=stdout'];
const args = process.argv.slice(2).map((a) => a.replace(/\/$/, ''));
const all = realtimeFiles();
const files = args.length === 0 ? all : args.flatMap((a) => (statSync(a).isDirectory() ? all.filter((f) => f.startsWith(`${a}/`)) : [a]));
const strays = files.filter((f) => !isRealtime(f));
if (strays.length > 0) console.warn(`test-realtime: not real-time files (they belong to the gate): ${strays.join(', ')}`);

const started = Date.now();
const seconds = (from) => Math.round((Date.now() - from) / 1000);
const results = [];
const run = (command, commandArgs) => spawnSync(command, commandArgs, { stdio: 'inherit' }).status === 0;

if (files.some((f) => kindOf(f) === 'e2e')) {
  const building = Date.now();
  console.log('\n=== real-time tier: building the packages and Storybook for the end-to-end files ===');
  const built = run('npm', ['run', 'build']) && run('npm', ['run', 'build-storybook']);
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
  let outcome = once() ? 'passed' : null;
  if (!outcome) {
    console.log(`\n=== real-time: ${file} failed; its one retry ===`);
    outcome = once() ? 'passed on retry' : 'FAILED';
  }
  results.push({ file, seconds: seconds(from), outcome });
}
finish();

function finish() {
  console.log('\nreal-time tier, file by file:');
  for (const r of results) console.log(`  ${String(r.seconds).padStart(5)} s  ${r.outcome.padEnd(15)} ${r.file}`);
  const failed = results.filter((r) => r.outcome === 'FAILED').length;
  const retried = results.filter((r) => r.outcome === 'passed on retry').length;
  console.log(`real-time tier: ${results.length} steps, ${failed} failed, ${retried} passed only on retry, ${seconds(started)} s`);
  process.exit(failed > 0 ? 1 : 0);
}
