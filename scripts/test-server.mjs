// Runs the server suite on the embedded PGlite, then again on PostgreSQL when PALKIT_TEST_DATABASE_URL
// is set (CI starts Debian's PostgreSQL and sets it). The chaos tests (test/server/chaos-*.test.ts)
// measure other rooms' reply times while one is flooded, so they run after the rest, one file at a time.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = (process.argv.length > 2 ? process.argv.slice(2) : readdirSync('test/server').filter((f) => f.endsWith('.test.ts')).map((f) => `test/server/${f}`)).sort();
const isChaos = (f) => /(^|\/)chaos-[^/]*\.test\.ts$/.test(f);
const batches = [
  { files: files.filter((f) => !isChaos(f)), concurrency: 2 },
  { files: files.filter(isChaos), concurrency: 1 },
].filter((b) => b.files.length > 0);
const pgUrl = process.env.PALKIT_TEST_DATABASE_URL;
const legs = [['PGlite', { ...process.env, PALKIT_TEST_DATABASE_URL: '' }]];
if (pgUrl) legs.push(['PostgreSQL', { ...process.env, PALKIT_TEST_DATABASE_URL: pgUrl }]);

// TAP as it goes, then the failed tests with their errors at the end, where CI's excerpt of the output is.
const REPORTERS = ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/failures-reporter.mjs', '--test-reporter-destination=stdout'];

let failed = false;
for (const [name, env] of legs) {
  console.log(`\n=== server suite on ${name} (${files.length} files) ===`);
  for (const batch of batches) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${batch.concurrency}`, ...REPORTERS, ...batch.files], { stdio: 'inherit', env });
    if (run.status !== 0) failed = true;
  }
}
process.exit(failed ? 1 : 0);
