// The renderer that runs on this machine: the local voice (eSpeak NG from npm, or the espeak-ng program
// with PALKIT_LOCAL_VOICE=native) synthesises speech into WAV, ffmpeg (bundled) encodes it to
// MP3/Ogg and makes the talking-face MP4 (the face image held, or the face video looped, under the
// speech; a background shown behind it picture-in-picture), a still JPEG and a small GIF preview.
// Every run gets its own temporary directory, removed afterwards; user text reaches espeak-ng only
// through a file.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateFfmpeg, type FfmpegLookup } from '../../../platform/media/ffmpeg.js';
import { RenderError, type AudioFormat, type MediaInput, type RenderOptions, type Renderer } from './contract.js';
import { findTool, runTool, ToolFailedError } from './subprocess.js';
import { wavDurationSeconds } from '../../../platform/audio/wav.js';

const SPEECH_TIMEOUT_MS = 60_000;
/** Encoding time grows with the length of the speech; a 5000-character script speaks for minutes. */
const videoTimeoutMs = (seconds: number) => 120_000 + seconds * 3_000;
const FRAME_RATE = 25;
/** Output width cap: small files, quick encodes. */
const MAX_WIDTH = 640;
const VOICE_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_+\-/]{0,39}$/;

const audioTypes: Record<AudioFormat, { contentType: string; codec: string[] }> = {
  mp3: { contentType: 'audio/mpeg', codec: ['-c:a', 'libmp3lame', '-q:a', '5'] },
  ogg: { contentType: 'audio/ogg', codec: ['-c:a', 'libopus', '-b:a', '48k'] },
  wav: { contentType: 'audio/wav', codec: [] },
};

const tools = {
  'espeak-ng': 'espeak-ng (the speech synthesiser)',
  ffmpeg: 'ffmpeg (the audio and video encoder)',
} as const;

export interface LocalRendererOptions {
  /** Directories to look for espeak-ng in, PATH syntax. */
  searchPath: string;
  /** The ffmpeg to encode with; the bundled build by default. */
  ffmpeg?: FfmpegLookup;
  /** Speech without the espeak-ng program: the local voice in WebAssembly (the default; PALKIT_LOCAL_VOICE=native uses espeak-ng). */
  speak?: (text: string, voice: string, signal?: AbortSignal) => Promise<Uint8Array>;
}

export function createLocalRenderer(options: LocalRendererOptions): Renderer {
  const ffmpegLookup = options.ffmpeg ?? locateFfmpeg(undefined);
  function tool(name: keyof typeof tools): string {
    if (name === 'ffmpeg') {
      if ('missing' in ffmpegLookup) throw new RenderError(`${tools.ffmpeg} is not installed: ${ffmpegLookup.missing}`);
      return ffmpegLookup.path;
    }
    const found = findTool(name, options.searchPath);
    if (!found)
      throw new RenderError(
        `${tools[name]} is not installed: ${name} was not found on the renderer's search path (PALKIT_RENDER_PATH or PATH)`,
      );
    return found;
  }

  async function run(file: string, args: string[], cwd: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await runTool(file, args, { cwd, timeoutMs, ...(signal ? { signal } : {}) });
    } catch (error) {
      // The same input fails the same way again; only a timeout or an abort is worth another attempt.
      if (error instanceof ToolFailedError && !/timed out|aborted/.test(error.message)) throw new RenderError(error.message);
      throw error;
    }
  }

  const ffmpegArgs = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];

  async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'palkit-render-'));
    try {
      return await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  return {
    async renderSpeech(text, voice, format, opts: RenderOptions = {}) {
      if (!VOICE_PATTERN.test(voice)) throw new RenderError(`voice "${voice.slice(0, 40)}" is not a valid voice name`);
      const espeak = options.speak ? undefined : tool('espeak-ng');
      const target: AudioFormat = format ?? ('path' in ffmpegLookup ? 'mp3' : 'wav');
      const ffmpeg = target === 'wav' ? undefined : tool('ffmpeg');
      return inTempDir(async (dir) => {
        if (options.speak) {
          await writeFile(join(dir, 'speech.wav'), await options.speak(text, voice, opts.signal));
        } else {
          await writeFile(join(dir, 'script.txt'), text, 'utf8');
          await run(espeak!, ['-v', voice, '-w', 'speech.wav', '-f', 'script.txt'], dir, SPEECH_TIMEOUT_MS, opts.signal);
        }
        const wav = new Uint8Array(await readFile(join(dir, 'speech.wav')));
        const durationSeconds = wavDurationSeconds(wav);
        if (durationSeconds === undefined) throw new RenderError('espeak-ng produced no readable WAV audio');
        if (!ffmpeg) return { bytes: wav, contentType: audioTypes.wav.contentType, extension: 'wav', durationSeconds };
        const out = `speech.${target}`;
        await run(ffmpeg, [...ffmpegArgs, '-i', 'speech.wav', ...audioTypes[target].codec, out], dir, SPEECH_TIMEOUT_MS, opts.signal);
        return {
          bytes: new Uint8Array(await readFile(join(dir, out))),
          contentType: audioTypes[target].contentType,
          extension: target,
          durationSeconds,
        };
      });
    },

    async renderVideo(input, opts: RenderOptions = {}) {
      const ffmpeg = tool('ffmpeg');
      const duration = Math.max(0.2, input.speech.durationSeconds);
      const timeoutMs = videoTimeoutMs(duration);
      return inTempDir(async (dir) => {
        const speechFile = `speech.${input.speech.extension}`;
        await writeFile(join(dir, speechFile), input.speech.bytes);
        const faceArgs = await mediaInput(dir, 'face', input.face);
        const backgroundArgs = input.background ? await mediaInput(dir, 'background', input.background) : [];
        const even = `trunc(min(${MAX_WIDTH},iw)/2)*2`;
        const graph = input.background
          ? `[2:v]scale=640:360:force_original_aspect_ratio=increase,crop=640:360,setsar=1,fps=${FRAME_RATE}[bg];` +
            `[0:v]scale=-2:200,setsar=1,fps=${FRAME_RATE}[fg];[bg][fg]overlay=W-w-16:H-h-16,format=yuv420p[v]`
          : `[0:v]scale=w='${even}':h=-2,setsar=1,fps=${FRAME_RATE},format=yuv420p[v]`;
        await run(
          ffmpeg,
          [
            ...ffmpegArgs,
            ...faceArgs,
            '-i',
            speechFile,
            ...backgroundArgs,
            '-filter_complex',
            graph,
            '-map',
            '[v]',
            '-map',
            '1:a:0',
            '-t',
            duration.toFixed(3),
            '-c:v',
            'libx264',
            '-preset',
            'veryfast',
            '-crf',
            '28',
            '-pix_fmt',
            'yuv420p',
            '-threads',
            '2',
            '-c:a',
            'aac',
            '-b:a',
            '96k',
            '-movflags',
            '+faststart',
            'video.mp4',
          ],
          dir,
          timeoutMs,
          opts.signal,
        );
        await run(
          ffmpeg,
          [...ffmpegArgs, '-ss', Math.min(0.5, duration / 2).toFixed(3), '-i', 'video.mp4', '-frames:v', '1', '-q:v', '4', 'still.jpg'],
          dir,
          timeoutMs,
          opts.signal,
        );
        await run(
          ffmpeg,
          [
            ...ffmpegArgs,
            '-t',
            Math.min(2, duration).toFixed(3),
            '-i',
            'video.mp4',
            '-filter_complex',
            'fps=8,scale=160:-2:flags=lanczos,split[a][b];[a]palettegen=max_colors=64[p];[b][p]paletteuse',
            '-loop',
            '0',
            'preview.gif',
          ],
          dir,
          timeoutMs,
          opts.signal,
        );
        const read = async (name: string) => new Uint8Array(await readFile(join(dir, name)));
        return { mp4: await read('video.mp4'), still: await read('still.jpg'), gif: await read('preview.gif'), durationSeconds: duration };
      });
    },
  };
}

/** Writes one visual input and returns its ffmpeg input arguments: images are held, videos looped. */
async function mediaInput(dir: string, name: string, media: MediaInput): Promise<string[]> {
  const file = `${name}.${media.kind === 'image' ? imageExtension(media.bytes) : 'media'}`;
  await writeFile(join(dir, file), media.bytes);
  // The caller chose these bytes: ffmpeg reads them as a local file and opens nothing they point to.
  const local = ['-protocol_whitelist', 'file'];
  return media.kind === 'image'
    ? ['-loop', '1', '-framerate', String(FRAME_RATE), ...local, '-i', file]
    : ['-stream_loop', '-1', ...local, '-i', file];
}

/** The image demuxer picks its decoder by extension, so name the file after its real format. */
function imageExtension(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 12));
  if (head[0] === 0xff && head[1] === 0xd8) return 'jpg';
  if (head.subarray(0, 4).toString('hex') === '89504e47') return 'png';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  throw new RenderError('the image is not a JPEG, PNG, GIF or WebP file');
}
