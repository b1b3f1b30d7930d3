// `npm run test:browser`: the browser suite (web-test-runner) once per engine (two test files at a time each;
// engines side by side when there are two cores per engine), then a line per engine with its time and
// counts, and — since CI keeps only the tail of what is printed — each failed test's report again at the end.
// PALKIT_BROWSERS=chromium,firefox,webkit picks engines; other arguments go to wtr (e.g. --files).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { selectedEngines } from '../test/helpers/engines.mjs';

// Engines side by side where the cores allow: each engine's run keeps two test files going (two cores'
// worth), so engines run together only with two cores per engine: on a 2-core machine one after another,
// on 6 cores all three at once. PALKIT_BROWSER_ENGINES_AT_ONCE overrides.
const engines = selectedEngines();
const atOnce = Math.max(
  1,
  Math.min(engines.length, Number(process.env.PALKIT_BROWSER_ENGINES_AT_ONCE) || Math.floor(availableParallelism() / 2)),
);
const results = [];
const queue = [...engines];
await Promise.all(
  Array.from({ length: atOnce }, async () => {
    for (let engine = queue.shift(); engine; engine = queue.shift()) results.push(await runEngine(engine));
  }),
);
results.sort((a, b) => engines.indexOf(a.engine) - engines.indexOf(b.engine));

/** One engine's whole run: its output as it goes (held back and printed whole when engines share the screen). */
async function runEngine(engine) {
  const heading = `\n=== browser suite in ${engine} ===\n`;
  if (atOnce === 1) process.stdout.write(heading);
  const started = Date.now();
  let output = '';
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/@web/test-runner/dist/bin.js', ...process.argv.slice(2)], {
      env: { ...process.env, PALKIT_BROWSERS: engine },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (stream) => (d) => {
      if (atOnce === 1) stream.write(d);
      output += String(d).replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (atOnce > 1) process.stdout.write(heading + output);
  const tail = output.slice(-5000);
  const counts = [...tail.matchAll(/(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/g)].at(-1);
  return {
    engine,
    code,
    seconds: Math.round((Date.now() - started) / 1000),
    passed: Number(counts?.[1] ?? 0),
    failed: Number(counts?.[2] ?? 0),
    skipped: Number(counts?.[3] ?? 0),
    failures: code === 0 ? [] : failureReports(output),
  };
}
for (const r of results.filter((r) => r.failures.length > 0)) {
  console.log(`\nfailed in ${r.engine}:`);
  for (const report of r.failures) console.log(report);
}
console.log('\nbrowser suite by engine:');
for (const r of results)
  console.log(
    `  ${r.engine.padEnd(9)} ${String(r.seconds).padStart(4)} s  ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${r.code === 0 ? '' : ` (exit ${r.code})`}`,
  );
const total = results.reduce((t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
});
console.log(`browser: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);

/** Each "❌" report a failed run printed, with the file it belongs to, up to what follows it (at most 40 lines). */
function failureReports(text) {
  const lines = text.split('\n');
  const reports = [];
  let file = '';
  for (let i = 0; i < lines.length; i++) {
    const header = /(\S+\.test\.ts):\s*$/.exec(lines[i]);
    if (header) file = header[1];
    if (!lines[i].includes('❌')) continue;
    const report = [`  ${file}`, lines[i]];
    for (let j = i + 1; j < lines.length && j <= i + 40 && !endsReport(lines[j]); j++) report.push(lines[j]);
    reports.push(report.join('\n').trimEnd());
  }
  if (reports.length > 0) return [...new Set(reports)];
  // A failure without a test to blame (a page that never opened, a browser that did not start): the end of
  // what the engine's run printed, without its progress bars.
  return [
    lines
      .filter((line) => line.trim() !== '' && !endsReport(line))
      .slice(-30)
      .join('\n'),
  ];
}

function endsReport(line) {
  return /\S+\.test\.ts:\s*$/.test(line) || line.includes('❌') || /^\w+: \|/.test(line) || /^(Finished running|Running tests)/.test(line);
}
