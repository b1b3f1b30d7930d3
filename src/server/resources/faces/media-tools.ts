// ffmpeg over a training video: its facts (duration, size, codec) and one frame as a JPEG. The service
// ships ffmpeg (platform/media/ffmpeg.ts); where it has none (an unsupported platform, or its optional
// package left out) the step is skipped (the result says so) rather than failed.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    child.on('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT' ? new ToolMissing(`ffmpeg is not installed: ${ffmpeg.path} is missing`) : e));
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
  const { code, stderr } = await run(ffmpeg, ['-hide_banner', ...INPUT_OPTIONS, '-i', path, '-map', '0:v:0?', '-frames:v', '1', '-f', 'null', '-'], 30_000);
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
  const args = ['-v', 'error', ...INPUT_OPTIONS, '-ss', String(atSeconds), '-i', path, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', '-q:v', '3', 'pipe:1'];
  const { code, stdout } = await run(ffmpeg, args, 30_000);
  if (code !== 0 || stdout.length < 100 || stdout[0] !== 0xff || stdout[1] !== 0xd8) throw new VideoUnreadable('no frame could be decoded from the video');
  return new Uint8Array(stdout);
}
