// Fails when `npm ci` would refuse package-lock.json: asks npm itself (`npm ci --dry-run`, which validates
// the lock against package.json exactly as a real `npm ci` does, without touching node_modules or running
// scripts). The usual cause is a lock written without other platforms' optional packages (rollup, esbuild
// and other native tools ship one package per system); see README, "Updating dependencies".
import { spawnSync } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
  encoding: 'utf8',
  shell: process.platform === 'win32',
});
if (result.status === 0) {
  console.log('palkit: package-lock.json is in sync with package.json; npm ci accepts it');
  process.exit(0);
}
const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
const problems = output
  .split('\n')
  .filter((line) => /\b(Missing|Invalid):/.test(line))
  .map((line) => line.replace(/^npm error /, ''));
console.error(problems.length > 0 ? problems.join('\n') : output.trim());
console.error(
  '\npalkit: npm ci would refuse package-lock.json (above). Bring the lock back in sync with `npm install` and check it\n' +
    'again with `npm run check:lock`; if packages for other platforms stay missing, the registry lacks them for the\n' +
    'version chosen (see README, "Updating dependencies").',
);
process.exit(1);
