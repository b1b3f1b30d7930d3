// Videos with the built-in face (issue 51, point 6): POST /v2/videos with Ada (`rpalkitada`) failed, its
// still image a path the renderer could not fetch ("face media /faces/palkit-ada.svg could not be fetched").
// Ada is drawn from her geometry (face-drawing/ada.ts) in the video renderer's process, speaking: her
// mouth moves while the voice speaks and rests when it does not.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { locateFfmpeg } from '../../../../src/server/platform/media/ffmpeg.js';
import { startTestService, onPostgres, type TestService } from '../../../helpers/service.js';

const WIDTH = 320;
const HEIGHT = 180;

/** Mean absolute difference of two RGBA frames over a rectangle. */
function difference(a: Uint8Array, b: Uint8Array, [x0, y0, w, h]: [number, number, number, number]): number {
  let sum = 0;
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++)
      for (let c = 0; c < 3; c++) sum += Math.abs(a[(y * WIDTH + x) * 4 + c]! - b[(y * WIDTH + x) * 4 + c]!);
  return sum / (w * h * 3);
}

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && "PGlite only: drawing Ada in the renderer; video rows are videos.test's";

describe('a video of Ada, the built-in face', { timeout: 120_000, skip }, () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.close());

  it('renders, her mouth moving while she speaks', async () => {
    const created = await t.api('POST', '/v2/videos', { face_id: 'rpalkitada', script: 'Hello, I am Ada. I speak in videos too.' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await t.service.deps.jobs.drain(90_000);
    const video = (await t.api('GET', `/v2/videos/${created.body.video_id}`)).body;
    assert.equal(video.status, 'ready', video.error_details);
    const mp4 = (await t.service.deps.media.get(t.service.deps.db, video.download_url.split('/').pop()))!;
    const dir = mkdtempSync(join(tmpdir(), 'palkit-ada-video-'));
    try {
      writeFileSync(join(dir, 'v.mp4'), await mp4.bytes());
      const ffmpeg = locateFfmpeg(undefined);
      assert.ok('path' in ffmpeg);
      const raw = execFileSync(
        ffmpeg.path,
        ['-v', 'error', '-i', join(dir, 'v.mp4'), '-vf', `fps=25,scale=${WIDTH}:${HEIGHT}`, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'],
        { maxBuffer: 256 << 20 },
      );
      const size = WIDTH * HEIGHT * 4;
      const frames = Array.from({ length: Math.floor(raw.length / size) }, (_, i) => raw.subarray(i * size, (i + 1) * size));
      assert.ok(frames.length >= 40, `${frames.length} frames: seconds of speech`);
      // Ada's mouth is at (480, 322) of 960 × 540; the top-left corner is background.
      const k = WIDTH / 960;
      const mouth: [number, number, number, number] = [Math.round(450 * k), Math.round(305 * k), Math.round(60 * k), Math.round(45 * k)];
      const corner: [number, number, number, number] = [4, 40, mouth[2], mouth[3]];
      const change = (region: [number, number, number, number]) =>
        frames.slice(1).reduce((sum, f, i) => sum + difference(frames[i]!, f, region), 0) / (frames.length - 1);
      console.log(
        `# Ada's video: ${frames.length} frames, mouth change ${change(mouth).toFixed(2)} per frame, background ${change(corner).toFixed(2)}`,
      );
      assert.ok(
        change(mouth) > 2 && change(mouth) > 5 * change(corner),
        `mouth ${change(mouth).toFixed(2)} vs background ${change(corner).toFixed(2)} per frame`,
      );
      // Not a frame of the SVG still: drawn, with the AI mark in the top-right corner (white strokes on a dark badge).
      const last = frames.at(-1)!;
      const badge = [...Array(20).keys()].map((i) => last[((12 + i) * WIDTH + (WIDTH - 20)) * 4]!);
      assert.ok(Math.min(...badge) < 80 && Math.max(...badge) > 180, 'the AI mark');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
