// A drawn face's video frames (a trained face's rig, or Ada) are drawn in a process of their own
// (rig-render-entry.ts), one per video,
// ended when its video is: Skia's canvases, the decoded sheets and every frame read back live and die
// there. Drawn in the service, ten videos of one owner took it from 1.0 to 3.7 GB (native memory V8 does
// not see) and another tenant's first audio from 13 to 371 ms (issue 52, N32).
// Bounds: the renderer runs at the lowest CPU priority; its resident memory is capped (read from /proc at
// each report, and checked by the renderer itself) — RLIMIT_DATA cannot do it, V8 fails to reserve its
// code range under it; it must report within STALL_MS; an abort (the video deleted, the service stopping)
// kills it and its ffmpeg at once (its own process group). How many run at once is the job queue's limit on
// video jobs (config.videos.renders). However it ends, the caller gets an error that says so.
import { fork, type ChildProcess } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { constants, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../platform/package-root.js';
import { abortReason, type Clock, type ClockTimer } from '../../../platform/time.js';
import { RenderError } from './contract.js';
import type { RigVideoInput, VisemeCue } from './rig-video.js';
import { childEnv } from '../../../platform/child-env.js';

/** The face to draw: a trained face's rig (its JSON, parsed again in the renderer, and its two sheets), or Ada. */
export type DrawnFace = { kind: 'rig'; rig: unknown; idle: Uint8Array; mouths: Uint8Array } | { kind: 'ada' };

/** What a speaking face's video needs: the face, the visemes heard and when, how long it speaks. */
export interface FaceVideoInput {
  face: DrawnFace;
  cues: VisemeCue[];
  durationSeconds: number;
}

export interface RigRenderRequest extends FaceVideoInput {
  ffmpeg: string;
  out: string;
  memoryMb: number;
}

export type RigRenderMessage =
  { type: 'progress'; rssMb: number } | { type: 'done' } | { type: 'failed'; kind: 'render' | 'memory' | 'other'; message: string };

/** Each renderer started is published here as `{ child }` (tests watch it). */
export const rigRenderStarted = channel('palkit:video-renderer');

/** Until the first report (Node, the canvas addon, the sheets decoded), and between two reports (a second of video). */
const STALL_MS = 60_000;
/** The renderer's JavaScript heap (frames and Skia's memory are outside it: the RSS cap holds those). */
const MAX_HEAP_MB = 256;

const fromSource = import.meta.url.endsWith('.ts');
export const RENDERER_ENTRY = fromSource
  ? join(packageRoot, 'resources/videos/render/rig-render-entry.ts')
  : join(packageRoot, 'dist/video-renderer.js');

export interface RigRenderOptions {
  clock: Clock;
  ffmpeg: string;
  /** The renderer's resident memory cap. */
  memoryMb: number;
  signal: AbortSignal;
  /** Another entry (tests). */
  entry?: string;
}

/** Resident memory of a process, from /proc (undefined once it is gone, or off Linux). */
function residentMb(pid: number): number | undefined {
  try {
    const found = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return found ? Number(found[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A trained face's rig input as the renderer takes it. */
export const rigFace = (input: RigVideoInput): FaceVideoInput => ({
  face: { kind: 'rig', rig: input.rig, idle: input.idle, mouths: input.mouths },
  cues: input.cues,
  durationSeconds: input.durationSeconds,
});

/** The face speaking, drawn and encoded in the video renderer's process: a silent MP4. */
export async function renderFaceVideoInProcess(input: FaceVideoInput, options: RigRenderOptions): Promise<Uint8Array> {
  const entry = options.entry ?? RENDERER_ENTRY;
  if (!existsSync(entry))
    throw new RenderError('trained faces cannot be rendered on this server: the video renderer is missing from this build');
  const dir = await mkdtemp(join(tmpdir(), 'palkit-rig-video-'));
  try {
    const out = join(dir, 'face.mp4');
    await run(entry, { ...input, ffmpeg: options.ffmpeg, out, memoryMb: options.memoryMb }, options);
    return new Uint8Array(await readFile(out));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(entry: string, request: RigRenderRequest, options: RigRenderOptions): Promise<void> {
  const { clock, signal } = options;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(entry, [], {
      execArgv: [...(entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : []), `--max-old-space-size=${MAX_HEAP_MB}`],
      serialization: 'advanced',
      // Its own process group, so that ending it ends its ffmpeg too.
      detached: true,
      env: childEnv(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    try {
      if (child.pid) setPriority(child.pid, constants.priority.PRIORITY_LOW);
    } catch {
      // not permitted here: it still runs, at the service's priority
    }
    let settled = false;
    let stall: ClockTimer | undefined;
    let stderr = '';
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const end = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(stall);
      signal.removeEventListener('abort', onAbort);
      kill();
      outcome();
    };
    const fail = (error: Error) => end(() => reject(error));
    const arm = () => {
      clock.clearTimeout(stall);
      stall = clock.setTimeout(
        () => fail(new Error(`the video renderer stopped responding (nothing for ${STALL_MS / 1000} s) and was ended`)),
        STALL_MS,
      );
    };
    const onAbort = () => end(() => reject(abortReason(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
    arm();
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('message', (message: RigRenderMessage) => {
      if (message.type === 'progress') {
        const rss = (child.pid && residentMb(child.pid)) ?? message.rssMb;
        if (rss > options.memoryMb)
          return fail(
            new RenderError(
              `the video renderer used ${Math.round(rss)} MB (its cap is ${options.memoryMb} MB, PALKIT_VIDEO_RENDER_MEMORY_MB) and was ended: try a shorter script`,
            ),
          );
        return arm();
      }
      if (message.type === 'done') return end(resolve);
      fail(message.kind === 'other' ? new Error(message.message) : new RenderError(message.message));
    });
    child.on('error', (error) => {
      if (child.pid === undefined) fail(new Error(`the video renderer could not start (${error.message})`));
    });
    child.on('exit', (code, signalName) => {
      const lines = stderr.trim().split('\n');
      const last = lines.findLast((line) => /^\w*Error\b/.test(line)) ?? lines.pop();
      fail(
        new Error(
          `the video renderer crashed (${signalName ? `killed by ${signalName}` : `exit code ${code}`}${last ? `: ${last.slice(0, 200)}` : ''})`,
        ),
      );
    });
    rigRenderStarted.publish({ child });
    child.send(request);
  });
}
