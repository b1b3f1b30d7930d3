// The gate's server suite: test/server (its folders mirror src/server) on the embedded PGlite, and beside it on PostgreSQL
// when PALKIT_TEST_DATABASE_URL is set (CI starts Debian's PostgreSQL and sets it). The second leg runs only the
// files that reach the database the variable names (see onDatabase below): the others would run the same code
// twice. Files that measure real time are not the gate's: they live in test/realtime (and a
// test/server/**/chaos-*.test.ts still waiting to be moved there counts as real-time too) and
// scripts/test-realtime.mjs runs them, one file at a time, through this script with --one-at-a-time.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isRealtime, walk } from './test-tiers-files.mjs';

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
  const found = NAMES_DATABASE.test(text) || [...text.matchAll(RELATIVE_IMPORT)].some(([, specifier]) => {
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

// Each PGlite test process compiles PostgreSQL's WebAssembly anew, and V8's optimizing compiler (TurboFan) spent
// a fifth of a short file's CPU on it, on background threads, and doubled its memory (775 -> 390 MB peak), for
// code the file then runs for a second or two. Liftoff, V8's baseline compiler, alone: a file that starts one
// service and makes one request took 0.79 of the CPU and 0.81 of the wall time; longer files (local-pal,
// voice-hearing, conversations) 0.76-0.80 of the CPU, no longer on the wall. V8 takes the flag only on the
// command line (not NODE_OPTIONS); node --test hands it to each file's process. The gate only: the real-time
// tier keeps V8's defaults, as a service runs.
const WASM = oneAtATime ? [] : ['--liftoff-only'];

const batchesOf = (legFiles) => [{ files: legFiles, concurrency: oneAtATime ? 1 : 2 }].filter((b) => b.files.length > 0);
const pgUrl = process.env.PALKIT_TEST_DATABASE_URL;
const legs = [['PGlite', { ...process.env, ...startUp, PALKIT_TEST_DATABASE_URL: '' }, files]];
if (pgUrl) legs.push(['PostgreSQL', { ...process.env, ...startUp, PALKIT_TEST_DATABASE_URL: pgUrl }, files.filter(onDatabase)]);
if (onlyLeg && legs.some(([name]) => name === onlyLeg)) legs.splice(0, legs.length, ...legs.filter(([name]) => name === onlyLeg));

// TAP as it goes, then the slowest files (where the gate's minutes go), then the failed tests with their
// errors at the end, where CI's excerpt of the output is.
const REPORTERS = ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/file-times-reporter.mjs', '--test-reporter-destination=stdout', '--test-reporter=./scripts/failures-reporter.mjs', '--test-reporter-destination=stdout'];

// A test that hangs fails on its own after two minutes (the gate's tests take seconds; the real-time tier's
// files set their own) instead of holding the run until CI's limit.
const TIMEOUT = oneAtATime ? [] : ['--test-timeout=120000'];

// The two legs run side by side (PALKIT_SERVER_LEGS_AT_ONCE=1: one after the other): each keeps two files
// going, and much of a file's time is spent waiting (on PostgreSQL, on ffmpeg, the face trainer, sockets), so
// on two cores the legs fill each other's waits. The first leg's output is shown as it goes, each other leg's
// is held back and printed whole when it ends, so the two never interleave.
const atOnce = oneAtATime ? 1 : Math.max(1, Number(process.env.PALKIT_SERVER_LEGS_AT_ONCE) || 2);
const runs = legs.map(([name, env, legFiles], index) => () => runLeg(name, env, legFiles, atOnce > 1 && index > 0));
const results = atOnce > 1 ? await Promise.all(runs.map((run) => run())) : await runs.reduce(async (done, run) => [...(await done), await run()], Promise.resolve([]));
// CI keeps the end of the output: which legs failed is said last (their failed tests end each leg's output).
if (legs.length > 1) console.log(`\nserver suite: ${legs.map(([name], i) => `${name} ${results[i] ? 'passed' : 'FAILED'}`).join(', ')}`);
process.exit(results.every(Boolean) ? 0 : 1);

/** One leg's files in one node --test run; resolves to whether they all passed. */
function runLeg(name, env, legFiles, heldBack) {
  const skipped = files.length - legFiles.length;
  const heading = `\n=== server suite on ${name} (${legFiles.length} files${skipped ? `; ${skipped} that never open a database ran on PGlite only` : ''}) ===\n`;
  if (!heldBack) process.stdout.write(heading);
  return batchesOf(legFiles).reduce(async (passed, batch) => {
    const args = [...WASM, '--import', 'tsx', '--test', `--test-concurrency=${batch.concurrency}`, ...TIMEOUT, ...REPORTERS, ...batch.files];
    const child = spawn(process.execPath, args, { stdio: heldBack ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    if (heldBack) process.stdout.write(`${heading}${output}`);
    return (await passed) && code === 0;
  }, Promise.resolve(true));
}
