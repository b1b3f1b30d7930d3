// A node:test reporter that prints, once the run is over, the slowest test files by the sum of their top-level
// tests' durations (files run side by side, so their wall-clock spans overlap and say little), with the CPU
// those tests used: this process's and its ended children's (ffmpeg, the face trainer, a second service) from
// one top-level test's end to the next's, which attributes it to one file where a process runs its tests one
// at a time (the gate's shards). The gate must answer in minutes; this says where the minutes go.
// PALKIT_SLOWEST_FILES sets how many (0: none). With PALKIT_FILE_TIMES_OUT it also writes each file's seconds
// there as JSON, which scripts/test-server.mjs balances its shards by.
import { readFileSync, writeFileSync } from 'node:fs';

const SHOWN = Number(process.env.PALKIT_SLOWEST_FILES ?? 15);

/** CPU seconds of this process and its reaped children (Linux /proc; null elsewhere). */
function cpuNow() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100; // utime, stime, cutime, cstime
  } catch {
    return null;
  }
}

export default async function* fileTimes(source) {
  const files = new Map();
  let cpuAtLastEnd = cpuNow();
  for await (const event of source) {
    // One file is named both absolutely and from the root (a process per file): one row, not a second of 0 s.
    const file = event.data?.file?.replace(`${process.cwd()}/`, '');
    if (!file) continue;
    const entry = files.get(file) ?? { tests: 0, count: 0, cpu: 0 };
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      entry.tests += event.data.details?.duration_ms ?? 0;
      entry.count += 1;
      const cpu = cpuNow();
      if (cpu !== null) entry.cpu += cpu - cpuAtLastEnd;
      cpuAtLastEnd = cpu;
    }
    files.set(file, entry);
  }
  const rows = [...files].map(([file, e]) => ({ file, ...e }));
  if (process.env.PALKIT_FILE_TIMES_OUT)
    writeFileSync(
      process.env.PALKIT_FILE_TIMES_OUT,
      JSON.stringify(Object.fromEntries(rows.map((r) => [r.file, Math.round(r.tests) / 1000]))),
    );
  if (SHOWN <= 0 || files.size === 0) return;
  rows.sort((a, b) => b.tests - a.tests);
  const cpuTotal = rows.reduce((sum, r) => sum + r.cpu, 0);
  yield `\n=== slowest ${Math.min(SHOWN, rows.length)} of ${rows.length} files (sum of their top-level tests; their CPU, ${Math.round(cpuTotal)} s in all) ===\n`;
  for (const r of rows.slice(0, SHOWN))
    yield `${(r.tests / 1000).toFixed(1).padStart(7)} s  CPU ${r.cpu.toFixed(1).padStart(6)} s  ${String(r.count).padStart(3)} top-level  ${r.file}\n`;
}
