// Fails when a commit after BASE has a subject longer than 72 characters: a subject is the one line
// `git log --oneline` shows; the why and the figures go in the body. The history before BASE keeps its
// long subjects. `node scripts/check-subjects.mjs [range]` (default: BASE..HEAD).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** main's head when the rule began (issue 55). */
export const BASE = '66d3447';
export const MAX_SUBJECT = 72;

/** The commits in `range` of the repository at `cwd` whose subject is too long, as `hash subject` lines. */
export function longSubjects(range, cwd = process.cwd()) {
  const log = git(['log', '--format=%h%x09%s', range], cwd);
  return log
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'))
    .filter(([, subject]) => [...subject].length > MAX_SUBJECT)
    .map(([hash, subject]) => `${hash} (${[...subject].length}) ${subject}`);
}

/** The range to check: BASE..HEAD, or HEAD alone when BASE is not in this clone's history (a shallow one). */
export function defaultRange(cwd = process.cwd()) {
  const known = spawnSync('git', ['merge-base', '--is-ancestor', BASE, 'HEAD'], { cwd }).status === 0;
  return known ? `${BASE}..HEAD` : '-1';
}

function git(args, cwd) {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const range = process.argv[2] ?? defaultRange();
  const long = longSubjects(range);
  if (long.length === 0) {
    console.log(`palkit: every commit subject in ${range === '-1' ? 'HEAD' : range} is at most ${MAX_SUBJECT} characters`);
    process.exit(0);
  }
  console.error(
    `palkit: ${long.length} commit subject(s) over ${MAX_SUBJECT} characters (one line; the why and the figures go in the body):\n${long.join('\n')}`,
  );
  process.exit(1);
}
