// Runs a tool binary without a shell (arguments are never parsed by one, so user text cannot become a
// command), with a time limit and an abort signal, keeping only the tail of stderr for error messages.
// Every tool here does background work (speech items, videos), so it runs at the lowest CPU priority:
// the live rooms' voice and the event loop come first on a busy machine.
import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export class ToolFailedError extends Error {}

export { findTool } from '../../../platform/media/find-tool.js';

export function runTool(file: string, args: string[], options: RunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, LANG: 'C.UTF-8' },
    });
    try {
      if (child.pid) setPriority(child.pid, constants.priority.PRIORITY_LOW);
    } catch {
      // Not permitted here (some containers): it runs at normal priority.
    }
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    let reason: string | undefined;
    const kill = (why: string) => {
      reason ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(`timed out after ${Math.round(options.timeoutMs / 1000)} s`), options.timeoutMs);
    const onAbort = () => kill('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      done();
      reject(new ToolFailedError(`${file} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      done();
      if (code === 0 && !reason) return resolve();
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      reject(new ToolFailedError(`${file.split('/').pop()} ${reason ?? `exited with ${code ?? signal}`}${tail ? `: ${tail}` : ''}`));
    });
  });
}
