// Before `npm run serve` in a checkout: the service serves the script-tag bundle from src/palkit/dist/cdn, so build
// it when it is missing or older than the browser sources (only the two cdn builds: seconds, and they
// leave the rest of dist/ alone). Never starts a service that would answer /palkit.js with 503.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const dist = 'src/palkit/dist';
const outputs = [`${dist}/cdn/palkit.js`, `${dist}/cdn/palkit-full.js`];
const sources = [
  'src/palkit/cdn.ts',
  'src/palkit/cdn-full.ts',
  'src/palkit/cdn',
  'src/palkit/client',
  'src/palkit/components',
  'src/protocol',
  'src/face-drawing',
  'vite.config.ts',
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const built = () => Math.min(...outputs.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
const stale = () => built() === 0 || built() < Math.max(...sources.map(newest));

if (stale()) {
  // Two `npm run serve` at once build once: the second waits for the first.
  const lock = `${dist}/.cdn-build.lock`;
  mkdirSync(dist, { recursive: true });
  let mine = false;
  for (let waited = 0; !mine; waited += 250) {
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      if (waited > 120_000) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    if (stale()) {
      console.log(
        `palkit: ${built() === 0 ? `${dist}/cdn is missing` : `${dist}/cdn is older than the browser sources`}; building the script-tag bundle (vite build --mode cdn-full && --mode cdn)…`,
      );
      const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
      for (const mode of ['cdn-full', 'cdn']) {
        const result = spawnSync(npx, ['vite', 'build', '--mode', mode, '--logLevel', 'warn'], {
          stdio: 'inherit',
          shell: process.platform === 'win32',
        });
        if (result.status !== 0) {
          console.error(
            `palkit: building the browser bundle failed (vite build --mode ${mode}); the service would serve no /palkit.js. Fix the build, or run \`npm run build\`.`,
          );
          process.exit(result.status ?? 1);
        }
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
