// Installs dependencies when node_modules is missing or older than the lock file, so that
// `npm start` and `npm test` work on a fresh clone without a separate install step.
import { existsSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000;
if (stale) {
  console.log('palkit: installing dependencies…');
  try {
    execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
  } catch {
    // `npm ci` refuses a lock file that lacks optional platform packages (e.g. rollup's binaries for
    // other systems) when the registry in use does not serve them; `npm install` takes the same
    // locked versions and skips what this platform does not need.
    console.log('palkit: npm ci refused the lock file; installing with npm install instead');
    execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
  }
}
