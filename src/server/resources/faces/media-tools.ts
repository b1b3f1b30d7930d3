// ffmpeg over a training video: its facts (duration, size, codec), one frame as a JPEG, and what visitors
// may see of it (a still and a short silent preview: deriveThumbnails). The service
// ships ffmpeg (platform/media/ffmpeg.ts); where it has none (an unsupported platform, or its optional
// package left out) the step is skipped (the result says so) rather than failed.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FfmpegLookup } from '../../platform/media/ffmpeg.js';
import { parseInputInfo } from '../../platform/media/input-info.js';

export class ToolMissing extends Error {}
export class VideoUnreadable extends Error {}

/** Only local files as inputs: a crafted video cannot make ffmpeg open a URL or another file by reference. */
const INPUT_OPTIONS = ['-nostdin', '-protocol_whitelist', 'file'];

function run(ffmpeg: FfmpegLookup, args: string[], timeoutMs: number): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  if ('missing' in ffmpeg) return Promise.reject(new ToolMissing(`ffmpeg is not installed: ${ffmpeg.missing}`));
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg.path, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    const out: Buffer[] = [];
    // The input block ffmpeg prints first is what probeVideo reads: keep the head, not the tail.
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err = err.length < 16_000 ? err + c.toString() : err));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'ENOENT' ? new ToolMissing(`ffmpeg is not installed: ${ffmpeg.path} is missing`) : e),
    );
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err }));
  });
}

/** Runs `work` with the video written to a private temporary file (containers like MOV need seeking). */
export async function withVideoFile<T>(bytes: Uint8Array, extension: string, work: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'palkit-face-'));
  try {
    const path = join(dir, `video.${extension}`);
    await writeFile(path, bytes);
    return await work(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface VideoFacts {
  duration_seconds: number | null;
  width: number;
  height: number;
  video_codec: string;
  has_audio: boolean;
}

/**
 * Facts of the first video stream; VideoUnreadable when there is none or its first frame does not decode
 * (ffmpeg decodes one frame to nowhere and prints what it found on the way).
 */
export async function probeVideo(ffmpeg: FfmpegLookup, path: string): Promise<VideoFacts> {
  const { code, stderr } = await run(
    ffmpeg,
    ['-hide_banner', ...INPUT_OPTIONS, '-i', path, '-map', '0:v:0?', '-frames:v', '1', '-f', 'null', '-'],
    30_000,
  );
  const info = parseInputInfo(stderr);
  if (!info) throw new VideoUnreadable('the video could not be read');
  const video = info.streams.find((s) => s.kind === 'video');
  if (!video) throw new VideoUnreadable('the file has no video stream');
  if (code !== 0) throw new VideoUnreadable('the video could not be decoded');
  return {
    duration_seconds: info.durationSeconds,
    width: video.width,
    height: video.height,
    video_codec: video.codec,
    has_audio: info.streams.some((s) => s.kind === 'audio'),
  };
}

/** One early frame as JPEG bytes. */
export async function extractFrame(ffmpeg: FfmpegLookup, path: string, atSeconds: number): Promise<Uint8Array> {
  const args = [
    '-v',
    'error',
    ...INPUT_OPTIONS,
    '-ss',
    String(atSeconds),
    '-i',
    path,
    '-frames:v',
    '1',
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-q:v',
    '3',
    'pipe:1',
  ];
  const { code, stdout } = await run(ffmpeg, args, 30_000);
  if (code !== 0 || stdout.length < 100 || stdout[0] !== 0xff || stdout[1] !== 0xd8)
    throw new VideoUnreadable('no frame could be decoded from the video');
  return new Uint8Array(stdout);
}

/** The still's longest side, in pixels: a thumbnail, not the photo. */
export const STILL_MAX_SIDE = 640;
/** The preview's longest side, length and frame rate: a glimpse that moves, not the clip. */
export const PREVIEW_MAX_SIDE = 360;
export const PREVIEW_SECONDS = 3;
const PREVIEW_FPS = 15;

/** Scales down (never up) so that the longest side is at most `max`, both sides even. */
const fit = (max: number) => `scale='if(gte(iw,ih),min(${max},iw),-2)':'if(gte(iw,ih),-2,min(${max},ih))'`;

export interface Thumbnails {
  /** A JPEG of one early frame (the photo itself, re-encoded), at most STILL_MAX_SIDE, without the source's metadata. */
  still: Uint8Array;
  /** For a clip: an MP4 of its first PREVIEW_SECONDS, at most PREVIEW_MAX_SIDE, without sound or metadata. */
  preview: Uint8Array | null;
}

/**
 * What a face shows of its training clip or photo: new files made from it, never its bytes (its sound, its
 * full resolution, its location and camera metadata stay behind).
 */
export async function deriveThumbnails(
  ffmpeg: FfmpegLookup,
  path: string,
  options: { still: boolean; durationSeconds: number },
): Promise<Thumbnails> {
  // A frame a little into a clip: the very first one is often black or mid-blink.
  const at = options.still ? [] : ['-ss', String(Math.min(0.5, options.durationSeconds / 4))];
  const stillArgs = [
    '-v',
    'error',
    ...INPUT_OPTIONS,
    ...at,
    '-i',
    path,
    '-map_metadata',
    '-1',
    '-frames:v',
    '1',
    '-vf',
    fit(STILL_MAX_SIDE),
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-q:v',
    '4',
    'pipe:1',
  ];
  const still = await run(ffmpeg, stillArgs, 30_000);
  if (still.code !== 0 || still.stdout.length < 100 || still.stdout[0] !== 0xff || still.stdout[1] !== 0xd8)
    throw new VideoUnreadable('no frame could be decoded from the video');
  if (options.still) return { still: new Uint8Array(still.stdout), preview: null };
  const out = join(dirname(path), 'preview.mp4');
  const previewArgs = [
    '-v',
    'error',
    ...INPUT_OPTIONS,
    '-i',
    path,
    '-t',
    String(PREVIEW_SECONDS),
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    '-map_metadata',
    '-1',
    '-vf',
    `${fit(PREVIEW_MAX_SIDE)},fps=${PREVIEW_FPS}`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-threads',
    '1',
    '-movflags',
    '+faststart',
    '-y',
    out,
  ];
  const preview = await run(ffmpeg, previewArgs, 60_000);
  if (preview.code !== 0) throw new VideoUnreadable('no preview could be made of the video');
  return { still: new Uint8Array(still.stdout), preview: new Uint8Array(await readFile(out)) };
}
