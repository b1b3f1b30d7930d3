// `npm start` in this checkout, timed from the command to the demo answering: once after a source file
// changed (the builds that read it run again) and twice with nothing changed (no build runs). Anchor in
// the same run: a bare Node HTTP server from `node -e` to its first answer. Needs port 8787 free.
import { spawn } from 'node:child_process';
import { utimesSync } from 'node:fs';

const PORT = 8787;

async function secondsUntilAnswer(command: string, args: string[], url: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { env, stdio: 'ignore', detached: true });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    // The whole group: npm, its shell and the service.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
}

export default async function restartBench(): Promise<void> {
  const env = { ...process.env, PORT: String(PORT) };
  const demo = `http://localhost:${PORT}/demo/`;
  const anchor = await secondsUntilAnswer(
    process.execPath,
    ['-e', `require('http').createServer((q, s) => s.end('ok')).listen(${PORT})`],
    `http://localhost:${PORT}/`,
  );
  const now = new Date();
  utimesSync('src/palkit/components/conversation/conversation.ts', now, now);
  const changed = await secondsUntilAnswer('npm', ['start'], demo, env);
  const second = await secondsUntilAnswer('npm', ['start'], demo, env);
  const third = await secondsUntilAnswer('npm', ['start'], demo, env);
  console.log(`npm start until the demo answers (goal: a second start within 5 s), Node ${process.version}`);
  console.log(`  bare node HTTP server (anchor)         ${anchor.toFixed(2)} s`);
  console.log(`  after a source file changed (rebuild)  ${changed.toFixed(2)} s`);
  console.log(`  second start, nothing changed          ${second.toFixed(2)} s`);
  console.log(`  third start, nothing changed           ${third.toFixed(2)} s`);
}
