// Frames drawn one by one, piped to ffmpeg as raw RGBA and encoded to a silent H.264 MP4 (the renderer then
// puts the speech under it). Runs in the video renderer's process (rig-render-entry.ts): one frame buffer,
// reused, with one frame in flight at a time.
import { spawn } from 'node:child_process';
import { RenderError } from './contract.js';

export interface FrameProgress {
  /** Called every second of video with how many frames are drawn (the renderer reports it is alive). */
  onFrames?: (drawn: number, total: number) => void;
  signal?: AbortSignal;
}

export interface FrameFormat {
  width: number;
  height: number;
  fps: number;
  frames: number;
}

/** Encodes `format.frames` frames, frame `n` being what `draw(n)` returns (RGBA, width × height). */
export async function encodeFrames(
  ffmpeg: string,
  format: FrameFormat,
  out: string,
  draw: (n: number) => Uint8ClampedArray,
  progress: FrameProgress = {},
): Promise<void> {
  const { width, height, fps, frames } = format;
  const { signal } = progress;
  const child = spawn(
    ffmpeg,
    [
      '-v',
      'error',
      '-nostdin',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-s',
      `${width}x${height}`,
      '-r',
      String(fps),
      '-i',
      'pipe:0',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-threads',
      '1',
      '-y',
      out,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'], ...(signal ? { signal } : {}) },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-1000)));
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
  child.stdin.on('error', () => undefined); // a failed ffmpeg is reported by its exit code
  // One frame's pixels, reused: ffmpeg has taken a write once its callback runs, so each frame waits for it.
  const frame = Buffer.alloc(width * height * 4);
  for (let n = 0; n < frames; n++) {
    if (signal?.aborted || child.exitCode !== null) break;
    frame.set(draw(n));
    await new Promise<void>((resolve) => child.stdin.write(frame, () => resolve()));
    if (n % fps === 0 || n === frames - 1) progress.onFrames?.(n + 1, frames);
  }
  child.stdin.end();
  const code = await exited;
  if (signal?.aborted) throw signal.reason;
  if (code !== 0) throw new RenderError(`encoding the face's frames failed: ${stderr.trim().split('\n').pop() ?? `ffmpeg exited ${code}`}`);
}
