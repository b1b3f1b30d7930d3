// What ffmpeg says about its input (the "Input #0" block it prints on stderr): the duration and the
// streams. This stands in for ffprobe, which would be a second bundled binary of about 75 MB for the few
// facts the service needs. The block's shape has been the same from ffmpeg 4 to 7:
//   Duration: 00:00:03.00, start: 0.000000, bitrate: 79 kb/s
//   Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 320x240 [SAR 1:1 DAR 4:3], …
//   Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 22050 Hz, mono, fltp, 64 kb/s (default)

export interface InputStream {
  kind: 'video' | 'audio' | 'other';
  codec: string;
  /** Frame size of a video stream; 0 when not stated. */
  width: number;
  height: number;
}

export interface InputInfo {
  /** Seconds, or null when the container does not say (`Duration: N/A`). */
  durationSeconds: number | null;
  streams: InputStream[];
}

/** The first input's facts from ffmpeg's stderr, or undefined when it printed no input block (unreadable input). */
export function parseInputInfo(stderr: string): InputInfo | undefined {
  const start = stderr.search(/^Input #0, /m);
  if (start < 0) return undefined;
  // The input block ends where the output side begins.
  const rest = stderr.slice(start);
  const end = rest.search(/^(Stream mapping:|Output #0|Input #1)/m);
  const block = end < 0 ? rest : rest.slice(0, end);

  const duration = /^\s*Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/m.exec(block);
  const durationSeconds = duration
    ? Math.round((Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3])) * 1000) / 1000
    : null;

  const streams: InputStream[] = [];
  for (const line of block.matchAll(/^\s*Stream #0:\d+\S*: (\w+): (\S+?),?(?: (.*))?$/gm)) {
    const type = line[1]!.toLowerCase();
    const kind = type === 'video' ? 'video' : type === 'audio' ? 'audio' : 'other';
    // The frame size is a list item of its own ("…, 320x240 [SAR…" or "…, 320x240, SAR…"); codec tags such as
    // "(avc1 / 0x31637661)" are not preceded by a comma, so they never match.
    const size = kind === 'video' ? /(?:^|, )(\d{1,5})x(\d{1,5})(?=[ ,]|$)/.exec(line[3] ?? '') : null;
    streams.push({ kind, codec: line[2]!, width: size ? Number(size[1]) : 0, height: size ? Number(size[2]) : 0 });
  }
  return { durationSeconds, streams };
}
