// The real-time tier's figures on disk: .palkit/results/<file>.json holds the last run of each file (its
// `palkit-figure` lines, test/helpers/figures.ts), .palkit/results/previous/ the run before it. Read by
// scripts/report.mjs.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RESULTS = '.palkit/results';
const PREVIOUS = join(RESULTS, 'previous');
const MARK = /palkit-figure (\{.*\})\s*$/;

/** The figures printed in `output`, the last of each name kept (a retried file prints its figures again). */
export function figuresIn(output) {
  const byName = new Map();
  for (const line of output.split('\n')) {
    const match = MARK.exec(line);
    if (!match) continue;
    try {
      const figure = JSON.parse(match[1]);
      if (typeof figure.name === 'string' && typeof figure.value === 'number') byName.set(figure.name, figure);
    } catch {
      /* a line cut short */
    }
  }
  return [...byName.values()];
}

const nameOf = (file) =>
  file
    .replace(/^\.\//, '')
    .replace(/^test\/realtime\//, '')
    .replace(/\.test\.ts$/, '')
    .replace(/\//g, '--');

/** Writes a file's figures as its last run, the one it replaces kept as the previous. Nothing when it printed none. */
export function saveFigures(file, figures, outcome) {
  if (figures.length === 0) return;
  mkdirSync(PREVIOUS, { recursive: true });
  const path = join(RESULTS, `${nameOf(file)}.json`);
  if (existsSync(path)) renameSync(path, join(PREVIOUS, `${nameOf(file)}.json`));
  writeFileSync(path, JSON.stringify({ file, finished: new Date().toISOString(), outcome, figures }, null, 1));
}

/** Every file's last run and the one before: [{ file, finished, outcome, figures, previous }]. */
export function readResults() {
  if (!existsSync(RESULTS)) return [];
  const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);
  return readdirSync(RESULTS)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ ...read(join(RESULTS, f)), previous: read(join(PREVIOUS, f)) }));
}
