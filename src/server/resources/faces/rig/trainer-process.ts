// The two learning steps of face training (train.ts) in a process of their own (trainer-entry.ts), one
// per step, ended when the step ends. The landmark model, TensorFlow.js's WebAssembly heap and the rig's
// canvases (~300 MB) live and die with that process, and the detection and the rig's drawing never hold
// up the service's event loop.
// Why a process and not a worker thread: a worker thread did keep the event loop free, but the memory
// its C heap had used stayed with the service after it ended (glibc keeps a dead thread's freed arenas:
// +190–210 MB after one training, +500 MB after three); a process gives all of it back, and a native
// crash in it (Skia, WebAssembly) cannot take the service down.
// However the process ends — an exception in it, a crash, a kill from outside, or silence past the bounds
// below — the step fails with a TrainerFailed that says so, and the service goes on. One trainer at a time
// per service (a core and ~300 MB each); a few steps may wait for it, more are turned away with RetryLater
// (the job runs again later, its attempt not counted).
import { fork, type ChildProcess } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RetryLater } from '../../../platform/jobs/queue.js';
import { packageRoot } from '../../../platform/package-root.js';
import { abortReason, type Clock, type ClockTimer } from '../../../platform/time.js';
import { FaceProblem, type Analysis } from './analysis.js';
import type { RigFiles } from './build.js';
import { DecodeFailed } from './decode.js';
import { childEnv } from '../../../platform/child-env.js';

export type TrainerRequest =
  | { step: 'analyse'; ffmpeg: string; path: string; still: boolean; sourceSide?: number }
  | { step: 'rig'; ffmpeg: string; path: string; analysis: Analysis };

/** From the trainer: a frame handled (it is alive), then the step's result or why it failed. */
export type TrainerMessage =
  | { type: 'frame' }
  | { type: 'analysis'; analysis: Analysis }
  | { type: 'rig'; files: RigFiles }
  | { type: 'failed'; kind: 'face' | 'decode' | 'other'; message: string };

/** The trainer crashed, hung or could not start: training cannot go on this time. */
export class TrainerFailed extends Error {}

/** Each trainer started is published here as `{ child, step }` (diagnostics and tests watch it). */
export const trainerStarted = channel('palkit:face-trainer');

export interface TrainerBounds {
  /** Until the first frame: starting Node, loading the modules and the model, ffmpeg's first frame. */
  startMs: number;
  /** Between two frames, and from the last frame to the result (the rig is drawn after its last frame). */
  frameMs: number;
  /** The whole step (a 30 s clip at 10 fps is 300 frames). */
  totalMs: number;
}

const BOUNDS: TrainerBounds = { startMs: 120_000, frameMs: 60_000, totalMs: 15 * 60_000 };
/** Steps that may wait for the trainer; the job queue runs at most a few face jobs at once anyway. */
const MAX_WAITING = 4;
/** A step turned away runs again this much later. */
const BUSY_RETRY_MS = 10_000;
/** The trainer's JavaScript heap (frames and images are outside it; so is WebAssembly's memory). */
const MAX_HEAP_MB = 512;

const fromSource = import.meta.url.endsWith('.ts');
/** The trainer's entry: the TypeScript source in a checkout, @palkit/server's dist/face-trainer.js when built. */
export const TRAINER_ENTRY = fromSource
  ? join(packageRoot, 'resources/faces/rig/trainer-entry.ts')
  : join(packageRoot, 'dist/face-trainer.js');

export interface TrainerOptions {
  clock: Clock;
  /** Another entry (tests plant crashes and hangs). */
  entry?: string;
  bounds?: Partial<TrainerBounds>;
}

export class Trainer {
  private busy = false;
  private readonly waiting: Array<() => void> = [];
  private readonly clock: Clock;
  private readonly entry: string;
  private readonly bounds: TrainerBounds;

  constructor(options: TrainerOptions) {
    this.clock = options.clock;
    this.entry = options.entry ?? TRAINER_ENTRY;
    this.bounds = { ...BOUNDS, ...options.bounds };
  }

  /** Step "find the face": the clip's analysis, or a FaceProblem / DecodeFailed as if run here. */
  async analyse(request: Omit<Extract<TrainerRequest, { step: 'analyse' }>, 'step'>, signal: AbortSignal): Promise<Analysis> {
    const reply = await this.run({ step: 'analyse', ...request }, signal);
    if (reply.type !== 'analysis') throw new TrainerFailed('the face trainer answered out of turn: train the face again');
    return reply.analysis;
  }

  /** Step "build the rig". */
  async makeRig(request: Omit<Extract<TrainerRequest, { step: 'rig' }>, 'step'>, signal: AbortSignal): Promise<RigFiles> {
    const reply = await this.run({ step: 'rig', ...request }, signal);
    if (reply.type !== 'rig') throw new TrainerFailed('the face trainer answered out of turn: train the face again');
    return reply.files;
  }

  private async run(request: TrainerRequest, signal: AbortSignal): Promise<Exclude<TrainerMessage, { type: 'frame' | 'failed' }>> {
    await this.turn(signal);
    try {
      return await this.spawn(request, signal);
    } finally {
      this.busy = false;
      this.waiting.shift()?.();
    }
  }

  /** Waits for the trainer to be free (bounded: past MAX_WAITING the step is retried later). */
  private turn(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    if (this.waiting.length >= MAX_WAITING)
      return Promise.reject(new RetryLater(BUSY_RETRY_MS, 'the face trainer is busy with other faces'));
    return new Promise((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        reject(abortReason(signal));
      };
      this.waiting.push(go);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private spawn(request: TrainerRequest, signal: AbortSignal): Promise<Exclude<TrainerMessage, { type: 'frame' | 'failed' }>> {
    if (!fromSource && !existsSync(this.entry))
      return Promise.reject(new TrainerFailed('faces cannot be trained on this server: the face trainer is missing from this build'));
    const what = request.step === 'analyse' ? 'finding the face' : 'building the face';
    return new Promise((resolve, reject) => {
      // From the source the trainer runs the TypeScript entry through tsx, as the service itself does.
      const child: ChildProcess = fork(this.entry, [], {
        // tsx as found from here, not from the service's working directory.
        execArgv: [...(this.entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : []), `--max-old-space-size=${MAX_HEAP_MB}`],
        serialization: 'advanced',
        // It reads untrusted media and needs none of the service's settings or secrets.
        env: childEnv(),
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      let settled = false;
      let stall: ClockTimer | undefined;
      let stderr = '';
      const end = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        this.clock.clearTimeout(stall);
        this.clock.clearTimeout(whole);
        signal.removeEventListener('abort', onAbort);
        child.kill('SIGKILL');
        outcome();
      };
      const fail = (message: string) => end(() => reject(new TrainerFailed(message)));
      const arm = (ms: number) => {
        this.clock.clearTimeout(stall);
        stall = this.clock.setTimeout(
          () =>
            fail(
              `the face trainer stopped responding while ${what} (nothing for ${Math.round(ms / 1000)} s) and was ended: train the face again`,
            ),
          ms,
        );
      };
      const whole = this.clock.setTimeout(
        () =>
          fail(
            `the face trainer took longer than ${Math.round(this.bounds.totalMs / 60_000)} min ${what} and was ended: use a shorter clip`,
          ),
        this.bounds.totalMs,
      );
      const onAbort = () => end(() => reject(abortReason(signal)));
      signal.addEventListener('abort', onAbort, { once: true });
      arm(this.bounds.startMs);
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      child.on('message', (message: TrainerMessage) => {
        if (message.type === 'frame') return arm(this.bounds.frameMs);
        if (message.type !== 'failed') return end(() => resolve(message));
        end(() =>
          reject(
            message.kind === 'face'
              ? new FaceProblem(message.message)
              : message.kind === 'decode'
                ? new DecodeFailed(message.message)
                : new Error(message.message),
          ),
        );
      });
      child.on('error', (error) => {
        // A trainer that started and then died fails its pending send (EPIPE) before its exit is seen: the exit
        // says what happened (and the stall bound ends it if no exit comes). Only a trainer that never started
        // ends here.
        if (child.pid === undefined) fail(`the face trainer could not run while ${what} (${error.message}): train the face again`);
      });
      child.on('exit', (code, signalName) => {
        // Node's report of an uncaught error ends with its version: the error's own line says more.
        const lines = stderr.trim().split('\n');
        const last = lines.findLast((line) => /^\w*Error\b/.test(line)) ?? lines.pop();
        fail(
          `the face trainer crashed while ${what} (${signalName ? `killed by ${signalName}` : `exit code ${code}`}${last ? `: ${last.slice(0, 200)}` : ''}): train the face again`,
        );
      });
      trainerStarted.publish({ child, step: request.step });
      child.send(request);
    });
  }
}
