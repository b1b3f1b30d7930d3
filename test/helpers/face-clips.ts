// Training media made from the shared portrait (test/fixtures/portrait-collins.jpg, a real face, public
// domain; see /work/shared/fixtures/README.md) with the bundled ffmpeg: a short clip with a slow zoom
// and pan, the same as WebM, the photo as PNG/WebP, two copies side by side, and a face too small.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateFfmpeg } from '../../src/server/platform/media/ffmpeg.js';

export const PORTRAIT = fileURLToPath(new URL('../fixtures/portrait-collins.jpg', import.meta.url));

function ffmpegPath(): string {
  const found = locateFfmpeg(undefined);
  if ('missing' in found) throw new Error(`ffmpeg is needed for the face clips: ${found.missing}`);
  return found.path;
}

/** Runs ffmpeg with the portrait as input 0 and returns the output file's bytes. */
function make(extension: string, args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'palkit-face-clip-'));
  try {
    const out = join(dir, `out.${extension}`);
    execFileSync(ffmpegPath(), ['-v', 'error', '-y', ...args, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A square clip around the face (the face about 150 px across), zooming in and panning slowly. */
export function portraitClip(seconds = 3, format: 'mp4' | 'webm' = 'mp4'): Buffer {
  const frames = seconds * 25;
  const zoom = `zoompan=z='1+0.08*on/${frames}':x='iw/2-(iw/zoom/2)+12*on/${frames}':y='ih/2-(ih/zoom/2)-80':d=1:s=384x384:fps=25`;
  const codec =
    format === 'mp4' ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-pix_fmt', 'yuv420p'] : ['-c:v', 'libvpx', '-b:v', '300k'];
  return make(format, ['-loop', '1', '-i', PORTRAIT, '-t', String(seconds), '-vf', `scale=1024:1024,${zoom}`, ...codec]);
}

/** Two copies of the portrait side by side: two faces. */
export function twoFacesClip(seconds = 2): Buffer {
  return make('mp4', [
    '-loop',
    '1',
    '-i',
    PORTRAIT,
    '-t',
    String(seconds),
    '-filter_complex',
    '[0]split[a][b];[a][b]hstack,format=yuv420p',
    '-r',
    '10',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '30',
  ]);
}

/** The photo as PNG or WebP (JPEG: the fixture itself). */
export function portraitPhoto(format: 'jpg' | 'png' | 'webp'): Buffer {
  if (format === 'jpg') return readFileSync(PORTRAIT);
  return make(format, ['-i', PORTRAIT, ...(format === 'webp' ? ['-c:v', 'libwebp', '-quality', '85'] : [])]);
}

/** The photo shrunk so the face is about 40 px across. */
export function tinyFacePhoto(): Buffer {
  return make('png', ['-i', PORTRAIT, '-vf', 'scale=256:256,pad=512:512:128:128']);
}
