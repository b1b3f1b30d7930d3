// The process-level fault boundary: a rejected promise nobody handles is logged and counted, and the
// process goes on (Node's default would end it, and every call with it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const guard = fileURLToPath(new URL('../../../src/server/app/rejection-guard.ts', import.meta.url));

/** Runs a script that rejects a promise with no handler, with or without the guard; its exit status and output. */
function run(guarded: boolean): { status: number; output: string } {
  const script = `
    const { guardRejections } = await import(${JSON.stringify(guard)});
    let count = 0;
    if (${guarded}) guardRejections({ error: (m, f) => console.log(m, JSON.stringify(f)), info() {}, debug() {} }, { unhandledRejections: { inc: () => count++ } });
    Promise.reject(new Error('a provider answered nonsense'));
    await new Promise((r) => setTimeout(r, 50));
    console.log('still running; counted', count);`;
  try {
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: 0, output };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, output: e.stdout + e.stderr };
  }
}

describe('unhandled rejections', () => {
  it('end an unguarded process (the default this guards against)', () => {
    assert.notEqual(run(false).status, 0);
  });

  it('are logged and counted by the guard, and the process goes on', () => {
    const { status, output } = run(true);
    assert.equal(status, 0, output);
    assert.match(output, /a promise was rejected with no handler; the process goes on .*a provider answered nonsense/);
    assert.match(output, /still running; counted 1/);
  });
});
