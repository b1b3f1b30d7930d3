// Pictures in and out of the face-look instrument with the bundled ffmpeg: any image file into RGB, RGB into PNG.
import { execFileSync } from 'node:child_process';
import { bundledFfmpeg } from '../ffmpeg.js';
import type { Rgb } from './image.js';

/** The image file's pixels (its first frame), through an ffmpeg filter if given (`crop=…,scale=…`). */
export function readImage(path: string, filter?: string): Rgb {
  const scale = filter ? ['-vf', filter] : [];
  const ppm = execFileSync(
    bundledFfmpeg(),
    ['-v', 'error', '-nostdin', '-i', path, '-frames:v', '1', ...scale, '-f', 'image2pipe', '-c:v', 'ppm', '-pix_fmt', 'rgb24', 'pipe:1'],
    { maxBuffer: 1 << 28 },
  );
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error(`${path}: not decoded`);
  const w = Number(header[1]),
    h = Number(header[2]);
  return { width: w, height: h, rgb: new Uint8Array(ppm.subarray(header[0].length, header[0].length + w * h * 3)) };
}

/** The frame as a PNG file. */
export function writePng(path: string, image: Rgb): void {
  execFileSync(
    bundledFfmpeg(),
    [
      '-v',
      'error',
      '-nostdin',
      '-y',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${image.width}x${image.height}`,
      '-i',
      'pipe:0',
      '-frames:v',
      '1',
      path,
    ],
    { input: image.rgb },
  );
}
