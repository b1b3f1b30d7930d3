// The browser package's weight beside the service's figures: what the script tag loads before a call,
// the call UI, and what `npm install palkit` puts on disk (packages and MB). The same report as
// `npm run size` (scripts/size/report.ts), from a fresh build of the browser package; a budget exceeded
// shows as FAIL here and fails `npm run size`.
import { spawnSync } from 'node:child_process';
import { npm, repoRoot } from '../scripts/packing.js';
import { sizeReport } from '../scripts/size/report.js';

export default async function (): Promise<void> {
  const built = spawnSync(npm, ['run', '--silent', 'build:palkit'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (built.status !== 0) throw new Error('npm run build:palkit failed');
  await sizeReport();
}
