// The gate runs a shard's files in one process (scripts/test-server.mjs, --test-isolation=none), so a service
// a file forgets to close must not outlive the file: test/helpers/service.ts closes it when the next file's
// first test begins (and, as before, at the end of the run).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

const here = (name: string) => fileURLToPath(new URL(`./one-process/${name}`, import.meta.url));

it("closes a file's forgotten service when the next file begins, in one process", () => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-isolation=none', '--test-reporter=tap', here('1-starts.ts'), here('2-finds.ts')],
    {
      encoding: 'utf8',
      // Without NODE_TEST_CONTEXT, which would make the run report to this one rather than print its TAP.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_TEST_CONTEXT')),
        PALKIT_TEST_DATABASE_URL: '',
      },
    },
  );
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /# pass 3/);
});
