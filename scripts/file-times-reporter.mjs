// A node:test reporter that prints, once the run is over, the slowest test files by the sum of their top-level
// tests' durations (files run side by side, so their wall-clock spans overlap and say little). The gate must
// answer in minutes; this says where the minutes go. PALKIT_SLOWEST_FILES sets how many (0: none). With
// PALKIT_FILE_TIMES_OUT it also writes each file's seconds there as JSON, which scripts/test-server.mjs
// balances its shards by.
import { writeFileSync } from 'node:fs';

const SHOWN = Number(process.env.PALKIT_SLOWEST_FILES ?? 15);

export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    // One file is named both absolutely and from the root (a process per file): one row, not a second of 0 s.
    const file = event.data?.file?.replace(`${process.cwd()}/`, '');
    if (!file) continue;
    const entry = files.get(file) ?? { tests: 0, count: 0 };
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      entry.tests += event.data.details?.duration_ms ?? 0;
      entry.count += 1;
    }
    files.set(file, entry);
  }
  const rows = [...files].map(([file, e]) => ({ file, tests: e.tests, count: e.count }));
  if (process.env.PALKIT_FILE_TIMES_OUT)
    writeFileSync(
      process.env.PALKIT_FILE_TIMES_OUT,
      JSON.stringify(Object.fromEntries(rows.map((r) => [r.file, Math.round(r.tests) / 1000]))),
    );
  if (SHOWN <= 0 || files.size === 0) return;
  rows.sort((a, b) => b.tests - a.tests);
  yield `\n=== slowest ${Math.min(SHOWN, rows.length)} of ${rows.length} files (sum of their top-level tests) ===\n`;
  for (const r of rows.slice(0, SHOWN))
    yield `${(r.tests / 1000).toFixed(1).padStart(7)} s  ${String(r.count).padStart(3)} top-level  ${r.file}\n`;
}
