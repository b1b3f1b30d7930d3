// Builds what `npm start` serves, and only what changed: each step has the files it reads and the files
// it writes; a step runs when one of its inputs changed since it last succeeded (path, size and mtime of
// every file under its inputs, plus its command) or when an output is missing. The fingerprints live in
// node_modules/.cache/palkit-build.json. `npm run build` still builds everything (the package).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CONFIG = [
  'vite.config.ts',
  'scripts/minify-css-literals.ts',
  'scripts/squeeze-indentation.ts',
  'scripts/precompress.ts',
  'package.json',
  'src/palkit/package.json',
  'src/server/package.json',
  'package-lock.json',
  'tsconfig.json',
];
/** The sources, without the packages' build outputs (each package's dist/), which would make every step look changed. */
const SRC = ['src/palkit', 'src/protocol', 'src/face-drawing', 'src/server'];
const DEMO = ['demo/vite.demo.config.ts', 'demo/react', 'demo/vue'];

/** The steps `npm start` needs, in order (no step empties a folder another step writes into). */
export const START_STEPS = [
  {
    name: 'package',
    command: ['vite', 'build'],
    inputs: [...SRC, ...CONFIG],
    outputs: ['src/palkit/dist/palkit/index.js', 'src/palkit/dist/palkit/react/index.js', 'src/palkit/dist/palkit/vue/index.js'],
  },
  {
    name: 'script tag, full',
    command: ['vite', 'build', '--mode', 'cdn-full'],
    inputs: [...SRC, ...CONFIG],
    outputs: ['src/palkit/dist/cdn/palkit-full.js', 'src/palkit/dist/cdn/palkit-full.js.br'],
  },
  {
    name: 'script tag',
    command: ['vite', 'build', '--mode', 'cdn'],
    inputs: [...SRC, ...CONFIG],
    outputs: ['src/palkit/dist/cdn/palkit.js', 'src/palkit/dist/cdn/palkit.js.br'],
  },
  {
    name: 'demo, React',
    command: ['vite', 'build', '--config', 'demo/vite.demo.config.ts', '--mode', 'react'],
    inputs: [...SRC, ...CONFIG, ...DEMO],
    outputs: ['dist/demo/react/index.html'],
  },
  {
    name: 'demo, Vue',
    command: ['vite', 'build', '--config', 'demo/vite.demo.config.ts', '--mode', 'vue'],
    inputs: [...SRC, ...CONFIG, ...DEMO],
    outputs: ['dist/demo/vue/index.html'],
  },
  // The service's extraction worker (the bundled demo service starts it from src/server/dist), then the demo
  // service itself: node loads one bundle at each start instead of tsx compiling every source file.
  {
    name: 'service',
    command: ['vite', 'build', '--mode', 'server'],
    inputs: [...SRC, ...CONFIG],
    outputs: [
      'src/server/dist/cli.js',
      'src/server/dist/extract-worker.js',
      'src/server/dist/espeak-worker.js',
      'src/server/dist/face-trainer.js',
      'src/server/dist/video-renderer.js',
    ],
  },
  {
    name: 'demo service',
    command: ['vite', 'build', '--mode', 'demo-service'],
    inputs: [...SRC, 'demo/start.ts', 'demo/seed.ts', 'demo/site-module.ts', ...CONFIG],
    outputs: ['dist/demo-service/start.js'],
  },
];

/** A digest of the step's command and of every file under its inputs (path, size, mtime). */
export function fingerprint(step, root) {
  const hash = createHash('sha256').update(JSON.stringify(step.command));
  const visit = (path) => {
    if (/(^|[\\/])dist$/.test(path)) return;
    const full = join(root, path);
    if (!existsSync(full)) return void hash.update(`${path}:missing\n`);
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(full).sort()) visit(join(path, entry));
    } else {
      hash.update(`${path}:${stat.size}:${Math.round(stat.mtimeMs)}\n`);
    }
  };
  for (const input of step.inputs) visit(input);
  return hash.digest('hex');
}

/** Why the step must run, or null when its outputs are there and its inputs are as when it last ran. */
export function reasonToRun(step, root, state) {
  const missing = step.outputs.find((output) => !existsSync(join(root, output)));
  if (missing) return `${missing} is missing`;
  if (state[step.name] !== fingerprint(step, root)) return 'its sources changed';
  return null;
}

/** Runs the steps that need it; `run(step)` returns true on success. Returns the names of the steps run. */
export function buildIncrementally(steps, root, statePath, run) {
  const state = existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : {};
  const ran = [];
  for (const step of steps) {
    const reason = reasonToRun(step, root, state);
    if (!reason) continue;
    console.log(`palkit: building ${step.name} (${reason})…`);
    delete state[step.name];
    if (!run(step)) {
      writeState(statePath, state);
      throw new Error(`palkit: building ${step.name} failed`);
    }
    state[step.name] = fingerprint(step, root);
    ran.push(step.name);
  }
  writeState(statePath, state);
  return ran;
}

function writeState(path, state) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  try {
    const ran = buildIncrementally(
      START_STEPS,
      root,
      join(root, 'node_modules/.cache/palkit-build.json'),
      (step) => spawnSync(npx, ['--no-install', ...step.command], { stdio: 'inherit', shell: process.platform === 'win32' }).status === 0,
    );
    if (ran.length === 0) console.log('palkit: the build is up to date');
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
