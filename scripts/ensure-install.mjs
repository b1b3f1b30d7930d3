// Installs dependencies when node_modules is missing or older than the lock file, so that
// `npm start` and `npm test` work on a fresh clone without a separate install step. It installs exactly
// what package-lock.json records, with `npm ci`, and never falls back to `npm install`: a lock that
// `npm ci` refuses is a bug to fix in the lock (README, "Updating dependencies"), not something to paper over.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000;
if (stale) {
  console.log('palkit: installing dependencies (npm ci)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(
      '\npalkit: `npm ci` failed (see above). If it says package.json and package-lock.json are not in sync, the lock\n' +
        'is incomplete: run `npm install`, check with `npm run check:lock` and commit package-lock.json\n' +
        '(README, "Updating dependencies"). Nothing was installed with `npm install` instead.',
    );
    process.exit(result.status ?? 1);
  }
}
