// Runs the server suite on the embedded PGlite, then again on PostgreSQL when PALKIT_TEST_DATABASE_URL
// is set (CI starts Debian's PostgreSQL and sets it).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = (process.argv.length > 2 ? process.argv.slice(2) : readdirSync('test/server').filter((f) => f.endsWith('.test.ts')).map((f) => `test/server/${f}`)).sort();
const pgUrl = process.env.PALKIT_TEST_DATABASE_URL;
const legs = [['PGlite', { ...process.env, PALKIT_TEST_DATABASE_URL: '' }]];
if (pgUrl) legs.push(['PostgreSQL', { ...process.env, PALKIT_TEST_DATABASE_URL: pgUrl }]);

let failed = false;
for (const [name, env] of legs) {
  console.log(`\n=== server suite on ${name} (${files.length} files) ===`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit', env });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
