// `npm start` builds only what changed (scripts/incremental-build.mjs): a step runs when one of its inputs
// changed since it last succeeded or an output is missing, and a failed step runs again next time.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
// @ts-expect-error: a plain-JavaScript build script, without type declarations
import { buildIncrementally } from '../../../scripts/incremental-build.mjs';

type Step = { name: string; command: string[]; inputs: string[]; outputs: string[] };

describe('incremental build for npm start', () => {
  const root = mkdtempSync(join(tmpdir(), 'palkit-build-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const steps: Step[] = [
    { name: 'lib', command: ['build', 'lib'], inputs: ['src', 'config.json'], outputs: ['out/lib.js'] },
    { name: 'demo', command: ['build', 'demo'], inputs: ['demo', 'config.json'], outputs: ['out/demo.js'] },
  ];
  const state = join(root, 'cache/state.json');
  let failing = '';
  const build = (): string[] =>
    buildIncrementally(steps, root, state, (step: Step) => {
      if (step.name === failing) return false;
      write(step.outputs[0]!, `built ${Date.now()}`);
      return true;
    });

  it('builds everything the first time and nothing the second', () => {
    write('src/a.ts', 'a');
    write('demo/page.html', 'p');
    write('config.json', '{}');
    assert.deepEqual(build(), ['lib', 'demo']);
    assert.deepEqual(build(), []);
  });

  it('rebuilds exactly the steps whose inputs changed', () => {
    write('demo/page.html', 'changed page');
    assert.deepEqual(build(), ['demo']);
    write('src/new-file.ts', 'new');
    assert.deepEqual(build(), ['lib']);
    // Same size, new modification time: an edit that kept the length.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'src/a.ts'), later, later);
    assert.deepEqual(build(), ['lib']);
    write('config.json', '{"x":1}');
    assert.deepEqual(build(), ['lib', 'demo']);
  });

  it('rebuilds a step whose output is missing, and a failed step until it succeeds', () => {
    rmSync(join(root, 'out/demo.js'));
    assert.deepEqual(build(), ['demo']);
    write('src/a.ts', 'edited');
    failing = 'lib';
    assert.throws(() => build(), /building lib failed/);
    failing = '';
    assert.deepEqual(build(), ['lib']);
    assert.deepEqual(build(), []);
  });

  it("ignores a package's build output under its sources (src/<package>/dist), so building does not make the next build stale", () => {
    assert.deepEqual(build(), []);
    write('src/dist/types.d.ts', 'export {};');
    write('src/nested/dist/chunk.js', 'x');
    assert.deepEqual(build(), []);
  });
});
