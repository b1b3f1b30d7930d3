// `npm run report` (and the end of the real-time tier): each real-time figure of the last run beside the run
// before (.palkit/results, scripts/results.mjs), with its change, the bars missed (asserted: the file failed)
// and the goals not met (reported only), per engine where the figure names one.
import { fileURLToPath } from 'node:url';
import { readResults } from './results.mjs';

export function report(results = readResults()) {
  if (results.length === 0) return 'no real-time figures yet: run `npm run test:realtime` (or one file of test/realtime)';
  const lines = [];
  const missed = [];
  const short = [];
  for (const run of results) {
    lines.push(
      `\n${run.file} (${run.finished?.slice(0, 16).replace('T', ' ')}, ${run.outcome ?? '?'}${run.previous ? `; before: ${run.previous.finished?.slice(0, 16).replace('T', ' ')}` : '; no run before'})`,
    );
    const before = new Map((run.previous?.figures ?? []).map((f) => [f.name, f]));
    for (const f of run.figures) {
      const was = before.get(f.name);
      const target = f.bar
        ? `  bar ${f.bar}${f.met === false ? ' MISSED' : ''}`
        : f.goal
          ? `  goal ${f.goal}${f.met === false ? ' (not met)' : ''}`
          : '';
      lines.push(
        `  ${f.name.padEnd(64)} ${format(f).padStart(12)}  ${was ? `${format(was).padStart(12)}  ${change(f, was)}` : ''.padStart(12)}${target}`,
      );
      if (f.met === false && f.bar) missed.push(`${run.file}: ${f.name} ${format(f)} (bar ${f.bar})`);
      if (f.met === false && f.goal) short.push(`${run.file}: ${f.name} ${format(f)} (goal ${f.goal})`);
    }
  }
  if (short.length > 0)
    lines.push(`\ngoals not met in the last runs (${short.length}; reported, not asserted):\n${short.map((m) => `  ${m}`).join('\n')}`);
  lines.push(
    missed.length === 0
      ? '\nbars: every bar met in the last runs'
      : `\nbars missed in the last runs (${missed.length}):\n${missed.map((m) => `  ${m}`).join('\n')}`,
  );
  return `real-time figures (last run, the run before, change)${lines.join('\n')}`;
}

const format = (f) => `${f.value} ${f.unit}`;

/** The change from `was` to `now`, marked better or worse when the figure says which way is better. */
function change(now, was) {
  const delta = now.value - was.value;
  if (delta === 0) return '=';
  const pct = was.value !== 0 ? ` (${delta > 0 ? '+' : ''}${Math.round((delta / Math.abs(was.value)) * 100)} %)` : '';
  const better = now.better === 'lower' ? delta < 0 : now.better === 'higher' ? delta > 0 : undefined;
  return `${delta > 0 ? '+' : ''}${Math.round(delta * 100) / 100}${pct}${better === undefined ? '' : better ? ' better' : ' worse'}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(report());
