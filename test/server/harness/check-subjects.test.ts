// scripts/check-subjects.mjs, which .ci/run runs first: a commit after the base with a subject over 72
// characters fails the run; shorter ones and the history before the base pass.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script of the repository, without types
import { longSubjects } from '../../../scripts/check-subjects.mjs';

const long = longSubjects as (range: string, cwd: string) => string[];

describe('commit subjects', () => {
  const repo = mkdtempSync(join(tmpdir(), 'palkit-subjects-'));
  after(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', `old: ${'x'.repeat(200)}`);
  const base = git('rev-parse', 'HEAD');
  git('commit', '-q', '--allow-empty', '-m', 'a'.repeat(72), '-m', 'a body as long as it needs to be '.repeat(10));
  git('commit', '-q', '--allow-empty', '-m', `é${'b'.repeat(71)}`);

  it('passes subjects of at most 72 characters after the base, whatever came before it', () => {
    assert.deepEqual(long(`${base}..HEAD`, repo), []);
  });

  it('names a subject of 73 characters', () => {
    git('commit', '-q', '--allow-empty', '-m', 'c'.repeat(73));
    const found = long(`${base}..HEAD`, repo);
    assert.equal(found.length, 1);
    assert.match(found[0]!, /\(73\) c{73}$/);
  });
});
