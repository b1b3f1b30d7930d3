// `npm test` (gate, then the real-time tier) and `npm run test:quick` (the gate alone): each step's start,
// time and CPU printed at the end, and each tier's. The gate fails fast: the first red step ends the run,
// since the real-time tier's answers mean little on a tree whose logic is broken.
//   gate:      the server suite (PGlite, and PostgreSQL when PALKIT_TEST_DATABASE_URL is set) with typecheck,
//              lint, the format check (Prettier) and the size budgets (npm run size: it builds) beside it, then
//              the browser suite in every engine — logic on a clock the tests control;
//   real-time: scripts/test-realtime.mjs — one file at a time, one retry, figures printed.
// The server suite's output is shown as it goes; every other step's is held back and printed whole when it
// ends, so they do not interleave.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

// A plan is a command [name, command, args, options?], or { beside: [plans] } (side by side), or { then: [plans] }
// (one after another). options: env (more variables), soft (red does not stop the others; the run ends red).
// The browser suite waits for the server suite: the server suite alone keeps both cores busy, and run side by
// side (at equal or lower priority) the browser's 5 s budgets and the server tests' bounds were missed and the
// gate took no less time.
const which = process.argv[2] ?? 'all';
const tiers = {
  gate: {
    then: [
      {
        beside: [
          ['server suite', process.execPath, ['scripts/test-server.mjs']],
          ['typecheck', 'npm', ['run', 'typecheck']],
          ['lint', 'npm', ['run', 'lint']],
          ['format', 'npm', ['run', 'format:check']],
          ['size budgets', 'npm', ['run', 'size']],
        ],
      },
      ['browser suite', process.execPath, ['scripts/test-browser.mjs']],
    ],
  },
  realtime: ['real-time tier', process.execPath, ['scripts/test-realtime.mjs']],
};
const chosen = which === 'all' ? ['gate', 'realtime'] : [which];
if (!chosen.every((t) => t in tiers)) {
  console.error(`test-tiers: unknown tier ${which} (gate, realtime or all)`);
  process.exit(2);
}

const lines = [];
const running = new Set();
let failed = false;
let softFailed = false; // a soft step was red: the run goes on, and ends red
let lastReaped = null; // the children's CPU at the last reaping (childrenCpu)
for (const tier of chosen) {
  const tierStarted = Date.now();
  const cpuAtStart = childrenCpu();
  const busyAtStart = machineBusy();
  // After the gate in the same run, its size step has just built the packages of this tree (npm run size).
  const env = tier === 'realtime' && chosen.includes('gate') ? { ...process.env, PALKIT_PACKAGES_BUILT: '1' } : process.env;
  const rows = [];
  const ok = await run(tiers[tier], { env, rows, shown: true });
  for (const r of rows.sort((a, b) => a.started - b.started))
    lines.push(row(tier, r.name, tierStarted, r.started, r.ended, r.cpu, r.busy, r.ok ? '' : r.stopped ? '  stopped' : '  FAILED'));
  const busy = busyAtStart === null ? null : machineBusy() - busyAtStart;
  lines.push(row(tier, '(tier)', tierStarted, tierStarted, Date.now(), childrenCpu() - cpuAtStart, busy, ok ? '' : '  FAILED'));
  if (!ok) break;
}
console.log(
  `\ntest tiers (node ${process.version}; from: start within the tier; CPU: user + system of its processes that it waited for;` +
    " busy: the machine's busy CPU seconds while it ran, shared by steps side by side and counting the browsers' and the databases' own):",
);
console.log(lines.join('\n'));
process.exit(failed || softFailed ? 1 : 0);

/** Runs a plan; resolves to whether it passed. When `shown`, the first of a `beside` and each of a `then` are shown as they go. */
async function run(plan, { env, rows, shown }) {
  if (failed) return false;
  if (Array.isArray(plan)) return runCommand(plan, env, rows, shown);
  if (plan.beside) {
    const results = await Promise.all(plan.beside.map((p, i) => run(p, { env, rows, shown: shown && i === 0 })));
    return results.every(Boolean);
  }
  // One after another, nothing interleaves: each is shown as it goes when its plan is.
  for (const p of plan.then) if (!(await run(p, { env, rows, shown }))) return false;
  return true;
}

/** One command; a red one stops every other running (fail fast), unless it is soft (the run then ends red). */
function runCommand([name, command, args, options = {}], env, rows, shown) {
  if (options.env) env = { ...env, ...options.env };
  const r = { name, started: Date.now(), ended: 0, cpu: null, busy: null, ok: false, stopped: false };
  const busyBefore = machineBusy();
  rows.push(r);
  if (shown) console.log(`\n##### ${name} #####`);
  return new Promise((resolve) => {
    // Its own process group (detached), so a stop reaches npm and everything it started.
    const child = spawn(command, args, { env, stdio: ['ignore', shown ? 'inherit' : 'pipe', shown ? 'inherit' : 'pipe'], detached: true });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const cpuBefore = childrenCpu();
    child.on('exit', () => {
      // The CPU this process and the ones it waited for used, counted the moment it is reaped; another step
      // ending within the same instant would be counted with it (rare, and the tier's total stays right).
      const after = childrenCpu();
      r.cpu = after === null ? null : after - (lastReaped ?? cpuBefore);
      lastReaped = after;
    });
    child.on('close', (code) => {
      running.delete(child);
      r.ended = Date.now();
      r.busy = busyBefore === null ? null : machineBusy() - busyBefore;
      r.ok = code === 0;
      r.stopped = Boolean(child.stopped);
      if (!r.ok && !r.stopped && options.soft) softFailed = true;
      else if (!r.ok && !r.stopped) {
        failed = true;
        for (const other of running) {
          other.stopped = true;
          try {
            process.kill(-other.pid, 'SIGTERM');
          } catch {
            /* already gone */
          }
        }
      }
      if (!shown) process.stdout.write(`\n##### ${name} #####\n${output}`);
      resolve(r.ok || (options.soft && !r.stopped));
    });
  });
}

/**
 * The CPU seconds (user + system) of this process's reaped children and their waited-for descendants, from
 * /proc (null where there is none). A step's CPU is the rise from the last reaping to its own: steps run
 * side by side, so the rise since it started would count the others' too.
 */
function childrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

/**
 * The machine's busy CPU seconds so far, all cores (/proc/stat: user, nice, system, irq, softirq, steal; null
 * elsewhere). A step's CPU counts only the processes it waited for: a browser's renderers, Xvfb and
 * PostgreSQL's servers are not among them, and in the browser suite they were more than half of its load.
 */
function machineBusy() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return [0, 1, 2, 5, 6, 7].reduce((sum, i) => sum + (fields[i] ?? 0), 0) / 100;
  } catch {
    return null;
  }
}

function row(tier, name, tierStarted, from, to, cpu, busy, status) {
  const cpuText = cpu === null ? '' : `  CPU ${String(Math.round(cpu)).padStart(5)} s`;
  const busyText = busy === null ? '' : `  busy ${String(Math.round(busy)).padStart(5)} s`;
  return `  ${tier.padEnd(8)} ${name.padEnd(15)} from ${minutes(tierStarted, from)}  took ${minutes(from, to)}${cpuText}${busyText}${status}`;
}

function minutes(from, to = Date.now()) {
  const s = Math.round((to - from) / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
