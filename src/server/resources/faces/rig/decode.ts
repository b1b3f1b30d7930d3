// Decodes a training clip (or a photo) into RGB frames with the bundled ffmpeg, sampled at a fixed rate
// and scaled to fit a box, streamed one frame at a time (a 20 s clip never sits in memory whole). Frames
// come out as PPM (the header carries each frame's size, so a rotated phone video needs no guessing).
import { spawn } from 'node:child_process';
import type { Frame } from './landmarks.js';

export class DecodeFailed extends Error {}

export interface DecodeOptions {
  fps: number;
  /** The longer side of a frame is at most this. */
  maxSide: number;
  /** Decode from here (s) for at most this long (s). */
  fromSeconds?: number;
  seconds: number;
  /** A photo: its one frame (the fps filter can drop a single picture's only frame). */
  still?: boolean;
}

/** Only local files as inputs, as in media-tools.ts. */
const INPUT_OPTIONS = ['-nostdin', '-protocol_whitelist', 'file'];

/** Calls `onFrame` for each decoded frame in order (index counts from `fromSeconds`); resolves with the count. */
export function decodeFrames(
  ffmpeg: string,
  path: string,
  options: DecodeOptions,
  onFrame: (frame: Frame, index: number) => Promise<void>,
): Promise<number> {
  const side = options.maxSide;
  const filter = `${options.still ? '' : `fps=${options.fps},`}scale='if(gt(iw,ih),min(${side},iw),-2)':'if(gt(iw,ih),-2,min(${side},ih))':flags=area,format=rgb24`;
  const args = ['-v', 'error', ...INPUT_OPTIONS];
  if (options.fromSeconds) args.push('-ss', options.fromSeconds.toFixed(3));
  args.push(
    '-i',
    path,
    ...(options.still ? ['-frames:v', '1'] : ['-t', options.seconds.toFixed(3)]),
    '-an',
    '-vf',
    filter,
    '-f',
    'image2pipe',
    '-c:v',
    'ppm',
    'pipe:1',
  );
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
    let pending: Buffer = Buffer.alloc(0);
    let count = 0;
    let failed: unknown;
    let stderr = '';
    let chain = Promise.resolve();
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    child.stdout.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(pending.subarray(0, 40).toString('latin1'));
        if (!header) break;
        const width = Number(header[1]);
        const height = Number(header[2]);
        const end = header[0].length + width * height * 3;
        if (pending.length < end) break;
        const frame: Frame = { width, height, rgb: new Uint8Array(pending.subarray(header[0].length, end)) };
        pending = pending.subarray(end);
        const index = count++;
        // Frames are handled one after another; ffmpeg is paused while the handler is behind.
        child.stdout.pause();
        chain = chain
          .then(() => (failed ? undefined : onFrame(frame, index)))
          .catch((error: unknown) => {
            failed ??= error;
            child.kill();
          })
          .finally(() => child.stdout.resume());
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      void chain.then(() => {
        if (failed) reject(failed);
        else if (code !== 0 && count === 0)
          reject(new DecodeFailed(`ffmpeg could not decode the video${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`));
        else resolve(count);
      });
    });
  });
}
