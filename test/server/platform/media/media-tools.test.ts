// The service's media tools come from npm, not the system: the ffmpeg build shipped for this platform in
// @ffmpeg-installer/<os>-<arch> (or PALKIT_FFMPEG), with ffmpeg's own input block standing in for ffprobe.
// media-node-only.test.ts trains a face and renders a video over HTTP with only node on PATH.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { locateFfmpeg } from '../../../../src/server/platform/media/ffmpeg.js';
import { parseInputInfo } from '../../../../src/server/platform/media/input-info.js';
import { extractFrame, probeVideo, VideoUnreadable } from '../../../../src/server/resources/faces/media-tools.js';
import { createLocalRenderer } from '../../../../src/server/resources/videos/render/local-renderer.js';
import { RenderError } from '../../../../src/server/resources/videos/render/contract.js';
import { encodeWav as wav } from '../../../../src/server/platform/audio/wav.js';
import { mediaFixture } from '../../../helpers/media-fixtures.js';

const mp4 = readFileSync(mediaFixture('sample-face.mp4'));
const webm = readFileSync(mediaFixture('sample-face.webm'));
const jpg = readFileSync(mediaFixture('sample-face.jpg'));

/** PATH with nothing but node on it: no ffmpeg, ffprobe or espeak-ng from the system. */
function nodeOnlyPath(): { dir: string; restore: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'palkit-node-only-'));
  symlinkSync(process.execPath, join(dir, 'node'));
  const saved = process.env.PATH;
  process.env.PATH = dir;
  return { dir, restore: () => ((process.env.PATH = saved), rmSync(dir, { recursive: true, force: true })) };
}

/** A 440 Hz tone as 16-bit mono WAV. */
function tone(seconds: number, rate = 16_000): Uint8Array {
  const samples = new Int16Array(seconds * rate).map((_, i) => Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000));
  return wav(samples, rate);
}

describe("ffmpeg's input block (instead of ffprobe)", () => {
  // Verbatim from ffmpeg 4.1 (the bundled linux-x64 build) and 5.1 (Debian 12's), which differ in indent and stream ids.
  const v41 = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'video.mp4':
  Metadata:
    major_brand     : isom
  Duration: 00:01:03.52, start: 0.000000, bitrate: 79 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 320x240 [SAR 1:1 DAR 4:3], 5 kb/s, 15 fps, 15 tbr, 15360 tbn, 30 tbc (default)
    Metadata:
      handler_name    : VideoHandler
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 22050 Hz, mono, fltp, 64 kb/s (default)
Stream mapping:
  Stream #0:0 -> #0:0 (h264 (native) -> wrapped_avframe (native))
Output #0, null, to 'pipe:':
    Stream #0:0(und): Video: wrapped_avframe, yuv420p, 640x480 [SAR 1:1 DAR 4:3], q=2-31, 200 kb/s, 15 fps (default)
`;
  const v51 = `Input #0, matroska,webm, from 'video.webm':
  Duration: 00:00:02.00, start: 0.000000, bitrate: 13 kb/s
  Stream #0:0[0x1]: Video: vp8, yuv420p(tv, bt709, progressive), 1280x720, SAR 1:1 DAR 16:9, 15 fps, 15 tbr, 1k tbn
Stream mapping:
`;

  it('reads the duration, codecs and frame size of the input, not the output', () => {
    assert.deepEqual(parseInputInfo(v41), {
      durationSeconds: 63.52,
      streams: [
        { kind: 'video', codec: 'h264', width: 320, height: 240 },
        { kind: 'audio', codec: 'aac', width: 0, height: 0 },
      ],
    });
    assert.deepEqual(parseInputInfo(v51), { durationSeconds: 2, streams: [{ kind: 'video', codec: 'vp8', width: 1280, height: 720 }] });
  });

  it('has no duration for Duration: N/A and nothing for an input ffmpeg could not open', () => {
    assert.equal(
      parseInputInfo(
        "Input #0, image2, from 'x.jpg':\n  Duration: N/A, bitrate: N/A\n    Stream #0:0: Video: mjpeg, gray(bt470bg/unknown/unknown), 16x16 [SAR 1:1 DAR 1:1], 25 tbr\n",
      )?.durationSeconds,
      null,
    );
    assert.equal(parseInputInfo('video.mp4: Invalid data found when processing input\n'), undefined);
  });
});

describe('locating ffmpeg', () => {
  it('finds the build shipped for this platform inside its registry package', () => {
    const found = locateFfmpeg(undefined);
    assert.ok('path' in found, JSON.stringify(found));
    assert.equal(found.source, 'bundled');
    assert.ok(found.path.includes(`${sep}node_modules${sep}@ffmpeg-installer${sep}${process.platform}-${process.arch}${sep}`), found.path);
    assert.match(execFileSync(found.path, ['-hide_banner', '-version']).toString(), /^ffmpeg version /);
  });

  it('takes PALKIT_FFMPEG as a path or as a name on PATH, and says why when it is neither', () => {
    assert.deepEqual(locateFfmpeg(process.execPath), { path: process.execPath, source: 'PALKIT_FFMPEG' });
    const path = nodeOnlyPath();
    try {
      assert.deepEqual(locateFfmpeg('node'), { path: join(path.dir, 'node'), source: 'PALKIT_FFMPEG' });
      assert.deepEqual(locateFfmpeg('ffmpeg-nowhere'), { missing: 'PALKIT_FFMPEG=ffmpeg-nowhere was not found on PATH' });
    } finally {
      path.restore();
    }
    assert.deepEqual(locateFfmpeg(join(tmpdir(), 'no-such-ffmpeg')), {
      missing: `PALKIT_FFMPEG=${join(tmpdir(), 'no-such-ffmpeg')} is not an executable file`,
    });
  });
});

describe('probing and framing a training video with the bundled ffmpeg, only node on PATH', () => {
  let path: ReturnType<typeof nodeOnlyPath>;
  let dir: string;
  const file = (name: string, bytes: Uint8Array) => (writeFileSync(join(dir, name), bytes), join(dir, name));
  before(() => {
    path = nodeOnlyPath();
    dir = mkdtempSync(join(tmpdir(), 'palkit-media-'));
  });
  after(() => {
    path.restore();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the facts of an MP4 and a WebM and takes a JPEG frame from each', async () => {
    const ffmpeg = locateFfmpeg(undefined);
    assert.deepEqual(await probeVideo(ffmpeg, file('a.mp4', mp4)), {
      duration_seconds: 3,
      width: 320,
      height: 240,
      video_codec: 'h264',
      has_audio: true,
    });
    assert.deepEqual(await probeVideo(ffmpeg, file('b.webm', webm)), {
      duration_seconds: 2,
      width: 320,
      height: 240,
      video_codec: 'vp8',
      has_audio: false,
    });
    for (const name of ['a.mp4', 'b.webm']) {
      const jpeg = await extractFrame(ffmpeg, join(dir, name), 0.5);
      assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8], `${name}: a JPEG`);
      assert.ok(jpeg.length > 1000, `${name}: ${jpeg.length} bytes`);
    }
  });

  it('tells an unreadable file, a file without video and a video that does not decode apart', async () => {
    const ffmpeg = locateFfmpeg(undefined);
    await assert.rejects(
      probeVideo(ffmpeg, file('text.mp4', Buffer.from('not a video at all\n'.repeat(100)))),
      (e: Error) => e instanceof VideoUnreadable && /could not be read/.test(e.message),
    );
    await assert.rejects(
      probeVideo(ffmpeg, file('tone.wav', tone(1))),
      (e: Error) => e instanceof VideoUnreadable && /no video stream/.test(e.message),
    );
    // The MP4's header intact, its media data zeroed: the container opens, no frame decodes.
    const mdat = mp4.indexOf('mdat') + 4;
    const broken = file('broken.mp4', Buffer.concat([mp4.subarray(0, mdat), Buffer.alloc(mp4.length - mdat)]));
    await assert.rejects(probeVideo(ffmpeg, broken), (e: Error) => e instanceof VideoUnreadable && /could not be decoded/.test(e.message));
    await assert.rejects(extractFrame(ffmpeg, broken, 0.5), VideoUnreadable);
  });
});

describe('the renderer without an ffmpeg', () => {
  it('names what is missing and why', async () => {
    const renderer = createLocalRenderer({ searchPath: '', ffmpeg: locateFfmpeg(join(tmpdir(), 'nothing-here')) });
    await assert.rejects(
      renderer.renderVideo({
        speech: { bytes: tone(1), contentType: 'audio/wav', extension: 'wav', durationSeconds: 1 },
        face: { kind: 'image', bytes: jpg },
      }),
      (e: Error) =>
        e instanceof RenderError &&
        /^ffmpeg \(the audio and video encoder\) is not installed: PALKIT_FFMPEG=.*nothing-here is not an executable file$/.test(e.message),
    );
  });
});
