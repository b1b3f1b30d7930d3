// Runs a tool binary without a shell (arguments are never parsed by one, so user text cannot become a
// command), with a time limit and an abort signal, keeping only the tail of stderr for error messages.
// Every tool here does background work (speech items, videos), so it runs at the lowest CPU priority:
// the live rooms' voice and the event loop come first on a busy machine (the launcher sets it).
import { launchTool } from './tool-launcher.js';

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export class ToolFailedError extends Error {}

export { findTool } from '../../../platform/media/find-tool.js';

/** Runs the tool from a small helper process (tool-launcher.ts): forking the service itself stalls its event loop. */
export async function runTool(file: string, args: string[], options: RunOptions): Promise<void> {
  let reason: string | undefined;
  let killTool = () => {};
  const kill = (why: string) => {
    reason ??= why;
    killTool();
  };
  // eslint-disable-next-line no-restricted-globals -- an outside tool's kill timeout: its real time
  const timer = setTimeout(() => kill(`timed out after ${Math.round(options.timeoutMs / 1000)} s`), options.timeoutMs);
  const onAbort = () => kill('aborted');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const exit = await launchTool(
      { file, args, cwd: options.cwd, env: { PATH: process.env.PATH ?? '', HOME: options.cwd, LANG: 'C.UTF-8' } },
      (killIt) => {
        killTool = killIt;
        if (reason) killIt();
      },
    );
    if (exit.error !== undefined) throw new ToolFailedError(`${file} could not start: ${exit.error}`);
    if (exit.code === 0 && !reason) return;
    const tail = exit.stderr.trim().split('\n').slice(-3).join(' | ');
    throw new ToolFailedError(`${file.split('/').pop()} ${reason ?? `exited with ${exit.code ?? exit.signal}`}${tail ? `: ${tail}` : ''}`);
  } catch (error) {
    if (error instanceof ToolFailedError) throw error;
    throw new ToolFailedError(`${file.split('/').pop()} ${reason ?? (error instanceof Error ? error.message : String(error))}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
