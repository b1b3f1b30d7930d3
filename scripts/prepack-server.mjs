// `npm pack` of @palkit/server: builds what the package carries — the service and, beside it, the browser
// package's script tag it serves at /palkit.js — and the operator's guide, and fails when any is missing,
// so a tarball can never answer /palkit.js with "not built" while /readyz says ready.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

for (const script of ['build:cdn', 'build:server']) {
  const built = spawnSync(npm, ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const server = join(root, 'src/server');
const missing = [
  'dist/cli.js',
  'dist/video-renderer.js',
  'dist/daily-runner.js',
  'dist/daily-runner-page.js',
  'dist/cdn/palkit.js',
  'dist/cdn/palkit-full.js',
].filter((file) => !existsSync(join(server, file)));
if (missing.length) {
  console.error(`prepack: @palkit/server would ship without ${missing.join(', ')}`);
  process.exit(1);
}
copyFileSync(join(root, 'docs/production.md'), join(server, 'PRODUCTION.md'));
