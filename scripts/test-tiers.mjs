// `npm test` (gate, then the real-time tier) and `npm run test:quick` (the gate alone): each step's and each
// tier's time printed at the end. The gate fails fast: the first red step ends the run, since the real-time
// tier's answers mean little on a tree whose logic is broken.
//   gate:      the server suite (PGlite, and PostgreSQL when PALKIT_TEST_DATABASE_URL is set) with typecheck,
//              lint, the format check (Prettier) and the size budgets (npm run size: it builds) beside it, then the browser suite in every
//              engine — logic on a clock the tests control;
//   real-time: scripts/test-realtime.mjs — one file at a time, one retry, figures printed.
// The steps of a list run side by side: the first one's output is shown as it goes, each other's is held back
// and printed whole when it ends, so they do not interleave.
import { spawn, spawnSync } from 'node:child_process';

const which = process.argv[2] ?? 'all';
const tiers = {
  gate: [
    [
      ['server suite', process.execPath, ['scripts/test-server.mjs']],
      ['typecheck', 'npm', ['run', 'typecheck']],
      ['lint', 'npm', ['run', 'lint']],
      ['format', 'npm', ['run', 'format:check']],
      ['size budgets', 'npm', ['run', 'size']],
    ],
    ['browser suite', process.execPath, ['scripts/test-browser.mjs']],
  ],
  realtime: [['real-time tier', process.execPath, ['scripts/test-realtime.mjs']]],
};
const chosen = which === 'all' ? ['gate', 'realtime'] : [which];
if (!chosen.every((t) => t in tiers)) {
  console.error(`test-tiers: unknown tier ${which} (gate, realtime or all)`);
  process.exit(2);
}

const lines = [];
let ok = true;
for (const tier of chosen) {
  const tierStarted = Date.now();
  for (const step of tiers[tier]) {
    if (Array.isArray(step[0])) {
      const running = new Set();
      const results = await Promise.all(step.map(([name, command, args], i) => runBeside(name, command, args, running, i === 0)));
      for (const r of results)
        lines.push(
          `  ${tier.padEnd(8)} ${r.name.padEnd(15)} ${minutes(r.started, r.ended)}${r.ok ? '' : r.stopped ? '  stopped' : '  FAILED'}`,
        );
      ok = results.every((r) => r.ok);
    } else {
      const [name, command, args] = step;
      const started = Date.now();
      console.log(`\n##### ${tier}: ${name} #####`);
      // After the gate in the same run, its size step has just built the packages of this tree (npm run size).
      const env = tier === 'realtime' && chosen.includes('gate') ? { ...process.env, PALKIT_PACKAGES_BUILT: '1' } : process.env;
      ok = spawnSync(command, args, { stdio: 'inherit', env }).status === 0;
      lines.push(`  ${tier.padEnd(8)} ${name.padEnd(15)} ${minutes(started)}${ok ? '' : '  FAILED'}`);
    }
    if (!ok) break;
  }
  lines.push(`  ${tier.padEnd(8)} ${'(tier)'.padEnd(15)} ${minutes(tierStarted)}${ok ? '' : '  FAILED'}`);
  if (!ok) break;
}
console.log(`\ntest tiers (node ${process.version}):\n${lines.join('\n')}`);
process.exit(ok ? 0 : 1);

/** One step run beside others: its output shown as it goes (`shown`) or kept and printed under its heading once it ends; a red one stops the others (fail fast). */
function runBeside(name, command, args, running, shown) {
  const started = Date.now();
  if (shown) console.log(`\n##### ${name} #####`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', shown ? 'inherit' : 'pipe', shown ? 'inherit' : 'pipe'], detached: true });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('close', (code) => {
      running.delete(child);
      if (code !== 0 && !child.stopped) {
        for (const other of running) {
          other.stopped = true;
          process.kill(-other.pid, 'SIGTERM'); // its whole group: npm and what it started
        }
      }
      if (!shown) process.stdout.write(`\n##### ${name} #####\n${output}`);
      resolve({ name, ok: code === 0, stopped: Boolean(child.stopped), started, ended: Date.now() });
    });
  });
}

function minutes(from, to = Date.now()) {
  const s = Math.round((to - from) / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
