// Starts the render tools (espeak-ng, ffmpeg) from a small helper process instead of the service itself.
// Starting a program forks the process that starts it, and a fork copies the parent's page tables: the
// service holds around a gigabyte (the embedded database, the local voice's threads), so each spawn held
// its event loop 50–170 ms (measured in test/realtime/chaos-speech-queue.test.ts's profile, longer on a
// busy machine), and every room's replies waited. The helper is a bare Node process of ~40 MB, started
// once; it spawns each tool at the lowest CPU priority and reports how it ended, one JSON line each way.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';

export interface ToolRequest {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface ToolExit {
  code: number | null;
  signal: string | null;
  /** The tail of the tool's stderr. */
  stderr: string;
  /** Set when the tool could not start. */
  error?: string;
}

/** The helper's program: plain JavaScript run with `node -e`, so it needs no build step or loader. */
const HELPER = `
const { spawn } = require('node:child_process');
const { setPriority, constants } = require('node:os');
const running = new Map();
const reply = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.kill !== undefined) { running.get(m.kill)?.kill('SIGKILL'); return; }
  let stderr = '', settled = false;
  const settle = (r) => { if (!settled) { settled = true; running.delete(m.id); reply({ id: m.id, stderr, ...r }); } };
  const child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, stdio: ['ignore', 'ignore', 'pipe'] });
  running.set(m.id, child);
  try { if (child.pid) setPriority(child.pid, constants.priority.PRIORITY_LOW); } catch {}
  child.stderr.on('data', (c) => { stderr = (stderr + c.toString('utf8')).slice(-2000); });
  child.on('error', (e) => settle({ code: null, signal: null, error: e.message }));
  child.on('close', (code, signal) => settle({ code, signal }));
}).on('close', () => { for (const c of running.values()) c.kill('SIGKILL'); process.exit(0); });
`;

interface Pending {
  resolve(exit: ToolExit): void;
  reject(error: Error): void;
}

class ToolLauncher {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly helper: ChildProcess;
  dead = false;

  constructor() {
    // The one fork of the big process; the helper ends when the service does (its stdin closes).
    this.helper = spawn(process.execPath, ['-e', HELPER], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '' } });
    // Idle, it keeps no process alive; while a tool runs, its reply pipe does (see `held`).
    this.helper.unref();
    (this.helper.stdin as unknown as Socket).unref();
    this.held(false);
    createInterface({ input: this.helper.stdout! }).on('line', (line) => {
      const { id, ...exit } = JSON.parse(line) as ToolExit & { id: number };
      this.pending.get(id)?.resolve(exit);
      this.pending.delete(id);
      if (!this.pending.size) this.held(false);
    });
    this.helper.on('error', (error) => this.fail(`the tool launcher could not start: ${error.message}`));
    this.helper.on('exit', (code, signal) => this.fail(`the tool launcher exited (${code ?? signal})`));
    this.helper.stdin!.on('error', () => {}); // reported by 'exit'
  }

  run(request: ToolRequest, onStarted: (kill: () => void) => void): Promise<ToolExit> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.held(true);
      this.helper.stdin!.write(JSON.stringify({ id, ...request }) + '\n');
      onStarted(() => {
        if (this.pending.has(id) && !this.dead) this.helper.stdin!.write(JSON.stringify({ kill: id }) + '\n');
      });
    });
  }

  private held(waiting: boolean): void {
    const replies = this.helper.stdout as unknown as Socket;
    if (waiting) replies.ref();
    else replies.unref();
  }

  private fail(message: string): void {
    this.dead = true;
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
  }
}

let launcher: ToolLauncher | undefined;

/** Runs a tool from the helper (started on first use, again if it died); `onStarted` receives a way to kill it. */
export function launchTool(request: ToolRequest, onStarted: (kill: () => void) => void): Promise<ToolExit> {
  if (!launcher || launcher.dead) launcher = new ToolLauncher();
  return launcher.run(request, onStarted);
}
