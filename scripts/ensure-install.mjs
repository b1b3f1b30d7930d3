// Installs dependencies when node_modules is missing or older than the lock file, so that
// `npm start` and `npm test` work on a fresh clone without a separate install step.
import { existsSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000;
if (stale) {
  console.log('palkit: installing dependencies (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
