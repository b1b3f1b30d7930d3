// ffprobe/ffmpeg over a training video: its facts (duration, size, codec) and one frame as a JPEG.
// Both tools are optional: when missing from PATH the step is skipped (the result says so) rather than failed.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class ToolMissing extends Error {}
export class VideoUnreadable extends Error {}

function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    child.on('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT' ? new ToolMissing(`${command} is not installed`) : e));
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

/** Facts of the first video stream; VideoUnreadable when there is none or the file does not decode. */
export async function probeVideo(path: string): Promise<VideoFacts> {
  const { code, stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', path], 30_000);
  if (code !== 0) throw new VideoUnreadable('the video could not be read');
  const info = JSON.parse(stdout.toString() || '{}') as { streams?: Array<Record<string, unknown>>; format?: { duration?: string } };
  const video = info.streams?.find((s) => s.codec_type === 'video');
  if (!video) throw new VideoUnreadable('the file has no video stream');
  const duration = Number(info.format?.duration ?? video.duration);
  return {
    duration_seconds: Number.isFinite(duration) ? Math.round(duration * 1000) / 1000 : null,
    width: Number(video.width ?? 0),
    height: Number(video.height ?? 0),
    video_codec: String(video.codec_name ?? 'unknown'),
    has_audio: Boolean(info.streams?.some((s) => s.codec_type === 'audio')),
  };
}

/** One early frame as JPEG bytes. */
export async function extractFrame(path: string, atSeconds: number): Promise<Uint8Array> {
  const args = ['-v', 'error', '-ss', String(atSeconds), '-i', path, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', '-q:v', '3', 'pipe:1'];
  const { code, stdout } = await run('ffmpeg', args, 30_000);
  if (code !== 0 || stdout.length < 100 || stdout[0] !== 0xff || stdout[1] !== 0xd8) throw new VideoUnreadable('no frame could be decoded from the video');
  return new Uint8Array(stdout);
}
