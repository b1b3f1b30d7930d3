// `npm run test:area <path> [--watch]`: the gate's tests of one area, in seconds — the server files under
// test/server/<path> on PGlite, in one process, and the browser files under test/browser/<path> in Chromium,
// side by side. <path> may be a folder or one file of either tree (`live/room`, `components`,
// `resources/pals/pals.test.ts`). --watch reruns what changed as you save: node --test's and web-test-runner's
// watch modes (web-test-runner's needs a terminal). The real-time tier and the other engines stay with `npm test`.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { isRealtime, walk } from './test-tiers-files.mjs';

const watch = process.argv.includes('--watch');
const area = process.argv
  .slice(2)
  .find((a) => !a.startsWith('--'))
  ?.replace(/^\.\//, '')
  .replace(/^test\/(server|browser)\//, '')
  .replace(/\/$/, '');
if (!area) {
  console.error('usage: npm run test:area <path> [-- --watch]   (a folder or file under test/server/ or test/browser/, e.g. live/room)');
  process.exit(2);
}

/** The test files of `root`/`area`: the file itself, or every *.test.ts under the folder. */
function filesOf(root) {
  const path = `${root}/${area}`;
  if (!existsSync(path)) return [];
  return statSync(path).isDirectory() ? walk(path).filter((f) => f.endsWith('.test.ts') && !isRealtime(f)) : [path];
}
const serverFiles = filesOf('test/server');
const browserFiles = filesOf('test/browser');
if (serverFiles.length + browserFiles.length === 0) {
  console.error(`test:area: no test files under test/server/${area} or test/browser/${area}`);
  process.exit(2);
}
console.log(
  `test:area ${area}: ${serverFiles.length} server files on PGlite, ${browserFiles.length} browser files in Chromium${watch ? ', watching' : ''}`,
);

const started = Date.now();
const both = serverFiles.length > 0 && browserFiles.length > 0;
const runs = [];
if (serverFiles.length > 0) {
  // As the gate runs them (scripts/test-server.mjs), on PGlite alone and in one process.
  const args = [
    '--import',
    'tsx',
    '--test',
    '--test-isolation=none',
    '--test-reporter=spec',
    ...(watch ? ['--watch'] : []),
    ...serverFiles,
  ];
  runs.push(run('server', process.execPath, args, { ...process.env, PALKIT_TEST_DATABASE_URL: '' }));
}
if (browserFiles.length > 0) {
  const args = ['node_modules/@web/test-runner/dist/bin.js', '--files', ...browserFiles, ...(watch ? ['--watch'] : [])];
  // web-test-runner watches only on a terminal of its own: in --watch it has the screen, and the server's
  // lines are marked [server].
  runs.push(run('browser', process.execPath, args, { ...process.env, PALKIT_BROWSERS: 'chromium' }, watch));
}
const results = await Promise.all(runs);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\ntest:area ${area}: ${results.map((r) => `${r.name} ${r.ok ? 'passed' : 'FAILED'}`).join(', ')} in ${seconds} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);

/** One suite's run: its output as it goes, each line marked with the suite's name when both run (unless it has the terminal). */
function run(name, command, args, env, terminal = false) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: both && !terminal ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const mark = (stream) => {
      let partial = '';
      return (data) => {
        const lines = (partial + data).split('\n');
        partial = lines.pop();
        for (const line of lines) stream.write(`[${name}] ${line}\n`);
      };
    };
    child.stdout?.on('data', mark(process.stdout));
    child.stderr?.on('data', mark(process.stderr));
    child.on('close', (code) => resolve({ name, ok: code === 0 }));
  });
}
