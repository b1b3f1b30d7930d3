// The gate's server suite: test/server (its folders mirror src/server) on the embedded PGlite, and beside it on PostgreSQL
// when PALKIT_TEST_DATABASE_URL is set (CI starts Debian's PostgreSQL and sets it). The second leg runs only the
// files that reach the database the variable names (see onDatabase below): the others would run the same code
// twice. A file whose every top-level call skips one leg (`skip: onPostgres && 'PGlite only: why'`, read by
// databaseLeg in test-tiers-files.mjs) runs on the other alone. Files that measure real time are not the gate's: they live in test/realtime, and
// scripts/test-realtime.mjs runs them, one file at a time, through this script with --one-at-a-time.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { databaseLeg, isRealtime, walk } from './test-tiers-files.mjs';

const oneAtATime = process.argv.includes('--one-at-a-time');
// --leg=PGlite or --leg=PostgreSQL: that leg alone (the real-time runner, for a file that runs on one only).
const onlyLeg = process.argv.find((a) => a.startsWith('--leg='))?.slice('--leg='.length);
const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = (named.length > 0 ? named : walk('test/server').filter((f) => f.endsWith('.test.ts') && !isRealtime(f))).sort();

// A test reaches PostgreSQL only through code that reads PALKIT_TEST_DATABASE_URL (test/helpers/service.ts
// and a few files that start instances of their own): a file is on the database when it, or a test file it
// imports (relative imports, followed through test/), names the variable or the harness's onPostgres. A type-only
// import (`import type … from`) carries no code at run time and is not followed: hearing-turns.test.ts takes a
// type from live-fixtures.ts (which starts services) through helpers/voice.ts and never opens a database.
const NAMES_DATABASE = /PALKIT_TEST_DATABASE_URL|\bonPostgres\b/;
const RELATIVE_IMPORT = /^(?!\s*(?:import|export)\s+type\b)[^\n]*?(?:from|import)\s*\(?\s*'(\.[^']+)'/gm;
const reaches = new Map();
function onDatabase(file) {
  const path = resolve(file);
  if (reaches.has(path)) return reaches.get(path);
  reaches.set(path, false); // an import cycle adds nothing
  const text = readFileSync(path, 'utf8');
  const found =
    NAMES_DATABASE.test(text) ||
    [...text.matchAll(RELATIVE_IMPORT)].some(([, specifier]) => {
      const target = resolve(dirname(path), specifier).replace(/\.js$/, '.ts');
      return target.includes('/test/') && existsSync(target) && onDatabase(target);
    });
  reaches.set(path, found);
  return found;
}

// V8's compile cache (Node 22.1+) on disk: each file's process compiles the same few hundred modules (the
// service, kysely, PGlite, zod); with the cache only the first process compiles them, the others read the code
// back — a fifth of a file's start-up CPU. Entries are checked against the source, so a stale one is recompiled.
// And a young generation of 32 MB semi-spaces (V8's default is 16 on 64-bit): the tests allocate fast and keep
// little (request bodies, rows, PGlite's protocol buffers), and fewer scavenges took ~8 % off a file's CPU.
const startUp = {
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? resolve('node_modules/.cache/palkit/compile-cache'),
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-semi-space-size=32'].filter(Boolean).join(' '),
};

// V8's optimizing compiler (TurboFan) on PGlite's PostgreSQL WebAssembly cost a fifth of a short file's CPU when
// each file had a process of its own; Liftoff, V8's baseline compiler, alone was cheaper for code run a second
// or two (in one process for many files, the same CPU either way on a sample of 16 files). V8 takes the flag
// only on the command line (not NODE_OPTIONS). The gate only: the real-time tier keeps V8's defaults.
const WASM = oneAtATime ? [] : ['--liftoff-only'];

// The gate's files run in one process per shard (node --test --test-isolation=none): the service, kysely,
// PGlite and zod are loaded and compiled once per shard instead of once per file. A shard runs its tests one
// after another, so a test waiting on a subprocess or a socket leaves its core idle: two shards a leg on average (more
// on a machine with more than four cores) fill each other's waits. The shards of both legs run side by side.
// PALKIT_SERVER_SHARDS sets the number a leg has on average. The real-time tier keeps a process per file (--one-at-a-time).
// On 6 small files: 14.8 CPU-s with a process per file, 7.3 in one process, 9.0 in two.
const SHARDS = oneAtATime
  ? 1
  : Math.max(1, Number(process.env.PALKIT_SERVER_SHARDS) || Math.max(2, Math.floor(availableParallelism() / 2)));
const ISOLATION = oneAtATime ? [] : ['--test-isolation=none'];

// Each file's time on each leg, to balance the shards: the longest first, each to the shard with the least so
// far. The last run's (scripts/file-times-reporter.mjs writes them to the cache) where the cache has the file,
// else the snapshot committed beside this script (a fresh clone has no cache; balanced by size alone, one shard
// of a leg ran half a minute past the other), else the file's size in bytes / 1000 s. An ordinary run never
// rewrites the snapshot, so the tree stays clean: `--save-times` does (after adding, moving or reworking files).
const TIMES = resolve('node_modules/.cache/palkit/server-file-times.json');
const SNAPSHOT = resolve('scripts/server-file-times.json');
const saveSnapshot = process.argv.includes('--save-times');
/** { leg: { file: seconds } }; an older cache of one map for both legs is read as both legs'. */
function readTimes(path) {
  try {
    const times = JSON.parse(readFileSync(path, 'utf8'));
    return Object.values(times).some((v) => typeof v === 'number') ? { PGlite: times, PostgreSQL: times } : times;
  } catch {
    return {};
  }
}
const lastTimes = readTimes(TIMES);
const snapshot = readTimes(SNAPSHOT);
const costOf = (leg, f) => lastTimes[leg]?.[f] ?? snapshot[leg]?.[f] ?? statSync(f).size / 1000;
const legCost = (leg, legFiles) => legFiles.reduce((sum, f) => sum + costOf(leg, f), 0);
function shardsOf(leg, legFiles, count) {
  const cost = (f) => costOf(leg, f);
  const shards = Array.from({ length: Math.min(count, legFiles.length) }, () => ({ files: [], cost: 0 }));
  for (const f of [...legFiles].sort((a, b) => cost(b) - cost(a))) {
    const lightest = shards.reduce((a, b) => (b.cost < a.cost ? b : a));
    lightest.files.push(f);
    lightest.cost += cost(f);
  }
  return shards.map((shard) => shard.files.sort());
}

/** The file-times files the shards write, merged by saveTimes(). */
const timeParts = [];
/** The shards that failed, with their failed tests' file and their output: said again at the very end (sayFailed). */
const failedParts = [];

const pgUrl = process.env.PALKIT_TEST_DATABASE_URL;
// A file that states one leg (databaseLeg) is not loaded on the other: there it would start a service only to skip.
const stated = new Map(files.map((f) => [f, databaseLeg(f)]));
const legs = [
  ['PGlite', { ...process.env, ...startUp, PALKIT_TEST_DATABASE_URL: '' }, files.filter((f) => !pgUrl || stated.get(f) !== 'PostgreSQL')],
];
if (pgUrl)
  legs.push([
    'PostgreSQL',
    { ...process.env, ...startUp, PALKIT_TEST_DATABASE_URL: pgUrl },
    files.filter((f) => stated.get(f) !== 'PGlite' && onDatabase(f)),
  ]);
if (onlyLeg && legs.some(([name]) => name === onlyLeg)) legs.splice(0, legs.length, ...legs.filter(([name]) => name === onlyLeg));
// Shards of about equal cost across both legs (SHARDS a leg on average): the PostgreSQL leg runs only the files
// that reach a database, so with SHARDS each, PGlite's shards ran on alone for the last ~45 % of the suite.
const allCost = legs.reduce((sum, [name, , legFiles]) => sum + legCost(name, legFiles), 0);
const shardCount = new Map(
  legs.map(([name, , legFiles]) => [name, Math.max(1, Math.ceil((legCost(name, legFiles) / allCost) * SHARDS * legs.length - 0.05))]),
);

// TAP as it goes, then the slowest files (where the gate's minutes go), then the failed tests with their
// errors at the end, where CI's excerpt of the output is.
const REPORTERS = [
  '--test-reporter=tap',
  '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/file-times-reporter.mjs',
  '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/failures-reporter.mjs',
  '--test-reporter-destination=stdout',
];

// A test that hangs fails on its own after two minutes (the gate's tests take seconds; the real-time tier's
// files set their own) instead of holding the run until CI's limit.
const TIMEOUT = oneAtATime ? [] : ['--test-timeout=120000'];

// The legs run side by side (PALKIT_SERVER_LEGS_AT_ONCE=1: one after the other), and within a leg its shards.
// Much of a file's time is spent waiting (on PostgreSQL, ffmpeg, the face trainer, sockets), so on two cores
// the legs fill each other's waits. The first shard's output is shown as it goes, each other's is held back
// and printed whole when it ends, so they never interleave.
const atOnce = oneAtATime ? 1 : Math.max(1, Number(process.env.PALKIT_SERVER_LEGS_AT_ONCE) || 2);
const runs = legs.map(
  ([name, env, legFiles], index) =>
    () =>
      runLeg(name, env, legFiles, atOnce > 1 && index > 0),
);
const results =
  atOnce > 1
    ? await Promise.all(runs.map((run) => run()))
    : await runs.reduce(async (done, run) => [...(await done), await run()], Promise.resolve([]));
saveTimes();
sayFailed();
// CI keeps the end of the output: which legs failed is said last.
if (legs.length > 1) console.log(`\nserver suite: ${legs.map(([name], i) => `${name} ${results[i] ? 'passed' : 'FAILED'}`).join(', ')}`);
process.exit(results.every(Boolean) ? 0 : 1);

/** The file times the shards just wrote, merged into the last run's (and with --save-times into the snapshot). */
function saveTimes() {
  const merged = Object.fromEntries(Object.entries(lastTimes).map(([leg, times]) => [leg, { ...times }]));
  const fresh = {};
  for (const { leg, path } of timeParts) {
    try {
      const times = JSON.parse(readFileSync(path, 'utf8'));
      Object.assign((merged[leg] ??= {}), times);
      Object.assign((fresh[leg] ??= {}), times);
      rmSync(path, { force: true });
    } catch {
      /* a shard that wrote none */
    }
  }
  mkdirSync(dirname(TIMES), { recursive: true });
  writeFileSync(TIMES, JSON.stringify(merged, null, 1));
  if (!saveSnapshot) return;
  // A run of every gate file replaces a leg's times (a deleted file leaves); a run of named files adds to them.
  const saved = Object.fromEntries(
    Object.entries(fresh).map(([leg, times]) => {
      const all = { ...(named.length > 0 ? snapshot[leg] : {}), ...times };
      return [
        leg,
        Object.fromEntries(
          Object.keys(all)
            .sort()
            .map((f) => [f, Math.round(all[f] * 10) / 10]),
        ),
      ];
    }),
  );
  writeFileSync(SNAPSHOT, `${JSON.stringify({ ...snapshot, ...saved }, null, 2)}\n`);
}

/** Each failed shard's failed tests again, after all output: a shard that ended early printed them far above
 * the end of the log, which is all CI keeps. A shard that failed with none listed (a crash, a leaked error)
 * shows the end of its output instead. */
function sayFailed() {
  for (const { label, path, ended, output } of failedParts) {
    let text = '';
    try {
      text = readFileSync(path, 'utf8').trim();
      rmSync(path, { force: true });
    } catch {
      /* the process ended before its reporters wrote */
    }
    const tail = () => `the end of its output:\n${output.trimEnd().split('\n').slice(-40).join('\n')}`;
    process.stdout.write(`\n--- ${label} failed (${ended}) ---\n${text || tail()}\n`);
  }
}

/** One leg's files, in its shards side by side; resolves to whether they all passed. */
async function runLeg(name, env, legFiles, heldBack) {
  const shards = shardsOf(name, legFiles, shardCount.get(name));
  const other = name === 'PGlite' ? 'PostgreSQL' : 'PGlite';
  const left = files.filter((f) => !legFiles.includes(f));
  const say = left.filter((f) => stated.get(f) === other).length;
  const never = left.length - say;
  const why = [never && `${never} never ${never === 1 ? 'opens' : 'open'} a database`, say && `${say} ${say === 1 ? 'says' : 'say'} so`]
    .filter(Boolean)
    .join(', ');
  const heading = `\n=== server suite on ${name} (${legFiles.length} files${shards.length > 1 ? ` in ${shards.length} shards` : ''}${left.length ? `; ${left.length} on ${other} only: ${why}` : ''}) ===\n`;
  process.stdout.write(heading);
  const passed = await Promise.all(
    shards.map((shard, i) => runShard(name, `${name} ${i + 1}/${shards.length}`, env, shard, heldBack || i > 0)),
  );
  return passed.every(Boolean);
}

/** One node --test process over `shardFiles`; resolves to whether they all passed. */
async function runShard(leg, label, env, shardFiles, heldBack) {
  const times = resolve(`node_modules/.cache/palkit/server-file-times.${process.pid}.${timeParts.length}.json`);
  timeParts.push({ leg, path: times });
  const failures = `${times}.failed`;
  const args = [...WASM, '--import', 'tsx', '--test', ...ISOLATION, '--test-concurrency=1', ...TIMEOUT, ...REPORTERS, ...shardFiles];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, PALKIT_FILE_TIMES_OUT: times, PALKIT_FAILURES_OUT: failures },
  });
  let output = '';
  const take = (d) => {
    output += d;
    if (!heldBack) process.stdout.write(d);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const [code, signal] = await new Promise((resolve) => child.on('close', (...end) => resolve(end)));
  if (heldBack) process.stdout.write(`\n--- ${label} (${shardFiles.length} files) ---\n${output}`);
  if (code !== 0) failedParts.push({ label, path: failures, ended: signal ? `signal ${signal}` : `exit code ${code}`, output });
  else rmSync(failures, { force: true });
  return code === 0;
}
