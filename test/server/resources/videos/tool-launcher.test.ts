// The render tools (espeak-ng, ffmpeg) start from a small helper process, not from the service: forking
// the service (around a gigabyte) held its event loop 50–170 ms per tool (issue 34, item 10; the
// real-time bar is test/realtime/chaos-speech-queue.test.ts). The helper still reports each tool's end,
// its stderr and a kill, as spawning it directly did.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runTool, ToolFailedError } from '../../../../src/server/resources/videos/render/subprocess.js';

describe('render tools run from the tool launcher', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palkit-launcher-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('starts each tool from a helper process, not from the service', async () => {
    await runTool('/bin/sh', ['-c', 'echo $PPID > parent'], { cwd: dir, timeoutMs: 30_000 });
    const parent = Number((await readFile(join(dir, 'parent'), 'utf8')).trim());
    assert.ok(parent > 0);
    assert.notEqual(parent, process.pid, "the tool's parent is the launcher: the service was not forked");
    await runTool('/bin/sh', ['-c', 'echo $PPID > parent'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(Number((await readFile(join(dir, 'parent'), 'utf8')).trim()), parent, 'one launcher serves every tool');
  });

  it("reports a tool's failure with the tail of its stderr, and one that cannot start", async () => {
    await assert.rejects(
      runTool('/bin/sh', ['-c', 'echo first >&2; echo "bad input" >&2; exit 3'], { cwd: dir, timeoutMs: 30_000 }),
      (error: Error) => {
        assert.ok(error instanceof ToolFailedError);
        assert.match(error.message, /sh exited with 3: first \| bad input/);
        return true;
      },
    );
    await assert.rejects(runTool(join(dir, 'no-such-tool'), [], { cwd: dir, timeoutMs: 30_000 }), /could not start/);
  });

  it('kills a tool when its job is aborted', async () => {
    const abort = new AbortController();
    const running = runTool('/bin/sh', ['-c', 'echo started > started; exec sleep 60'], {
      cwd: dir,
      timeoutMs: 120_000,
      signal: abort.signal,
    });
    // The tool is under way once it has written its file.
    while (!(await readFile(join(dir, 'started'), 'utf8').catch(() => ''))) await new Promise((r) => setImmediate(r));
    abort.abort();
    await assert.rejects(running, /sh aborted/);
  });

  it('starts a new launcher when the old one has died, failing only the tool that was running', async () => {
    await runTool('/bin/sh', ['-c', 'echo $PPID > parent'], { cwd: dir, timeoutMs: 30_000 });
    const old = Number((await readFile(join(dir, 'parent'), 'utf8')).trim());
    const running = runTool('/bin/sh', ['-c', 'exec sleep 60'], { cwd: dir, timeoutMs: 120_000 });
    process.kill(old, 'SIGKILL');
    await assert.rejects(running, /tool launcher exited/);
    await runTool('/bin/sh', ['-c', 'echo $PPID > parent'], { cwd: dir, timeoutMs: 30_000 });
    const fresh = Number((await readFile(join(dir, 'parent'), 'utf8')).trim());
    assert.notEqual(fresh, old);
    assert.notEqual(fresh, process.pid);
  });
});
