// A generated video of a trained face speaks: its rig is drawn frame by frame on the server, the mouth of
// the viseme heard at each moment placed on the idle frame, an "AI" mark in the corner. Unit checks of
// one frame, then a face trained from the portrait photo speaking a script through POST /v2/videos.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { FaceRig } from '../../../../src/protocol/faces/rig.js';
import { locateFfmpeg } from '../../../../src/server/platform/media/ffmpeg.js';
import { drawSpeakingFrame, mouthAt, RIG_VIDEO_FPS, type RigVideoInput } from '../../../../src/server/resources/videos/render/rig-video.js';
import { portraitPhoto } from '../../../helpers/face-clips.js';
import { startFileServer } from '../../../helpers/loopback.js';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';

/** Mean absolute difference of two RGBA buffers over a rectangle. */
function difference(a: Uint8ClampedArray, b: Uint8ClampedArray, width: number, [x0, y0, w, h]: [number, number, number, number]): number {
  let sum = 0;
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++)
      for (let c = 0; c < 3; c++) sum += Math.abs(a[(y * width + x) * 4 + c]! - b[(y * width + x) * 4 + c]!);
  return sum / (w * h * 3);
}

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && "PGlite only: drawing the rig frame by frame; video rows are videos.test's";

describe('a trained face speaking in a generated video', { skip }, () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let faceId: string;
  let rig: FaceRig;
  let sheets: { idle: Uint8Array; mouths: Uint8Array };

  before(async () => {
    t = await startListeningService();
    files = await startFileServer({ '/face.jpg': { body: portraitPhoto('jpg'), contentType: 'image/jpeg' } });
    faceId = (await t.api('POST', '/v2/faces', { face_name: 'Speaker', train_video_url: `${files.url}/face.jpg` })).body.face_id;
    await t.service.deps.jobs.drain(180_000);
    const face = (await t.api('GET', `/v2/faces/${faceId}?verbose=true`)).body;
    assert.equal(face.status, 'completed', JSON.stringify(face));
    rig = FaceRig.parse(await (await fetch(face.face_rig_url)).json());
    const get = async (url: string) => new Uint8Array(await (await fetch(new URL(url, face.face_rig_url))).arrayBuffer());
    sheets = { idle: await get(rig.idle.url), mouths: await get(rig.mouths.sheet.url) };
  });
  after(async () => {
    await t.close();
    await files.close();
  });

  it('eases from one viseme into the next just before it starts', () => {
    const cues = [
      { atMs: 100, viseme: 'A' as const },
      { atMs: 400, viseme: 'M' as const },
    ];
    assert.deepEqual(mouthAt(cues, 0), { viseme: 'rest', next: 'rest', blend: 0 });
    assert.deepEqual(mouthAt(cues, 70), { viseme: 'rest', next: 'A', blend: 0.5 });
    assert.deepEqual(mouthAt(cues, 200), { viseme: 'A', next: 'A', blend: 0 });
    assert.deepEqual(mouthAt(cues, 400), { viseme: 'M', next: 'M', blend: 0 });
  });

  it("draws the heard viseme's mouth on the idle frame, nothing else changes, and the AI mark", async () => {
    const images = { idle: await loadImage(Buffer.from(sheets.idle)), mouths: await loadImage(Buffer.from(sheets.mouths)) };
    const frame = (cues: RigVideoInput['cues']) => {
      const canvas = createCanvas(rig.width, rig.height);
      const ctx = canvas.getContext('2d');
      drawSpeakingFrame(ctx, { rig, ...sheets, cues, durationSeconds: 1 }, images, 0);
      return ctx.getImageData(0, 0, rig.width, rig.height).data;
    };
    const silent = frame([]);
    const open = frame([{ atMs: 0, viseme: 'A' }]);
    const pose = rig.poses[0]!;
    const mouth: [number, number, number, number] = [
      Math.round(pose.x - pose.width / 2),
      Math.round(pose.y - pose.width / 4),
      Math.round(pose.width),
      Math.round(pose.width / 2),
    ];
    assert.ok(
      difference(silent, open, rig.width, mouth) > 8,
      `the open mouth shows: ${difference(silent, open, rig.width, mouth).toFixed(1)}`,
    );
    assert.equal(difference(silent, open, rig.width, [0, rig.height - 120, 100, 100]), 0, 'away from the mouth nothing changes');
    // The mark: the idle cell itself (without the overlay) differs from the frame in the top-right corner.
    const bare = createCanvas(rig.width, rig.height).getContext('2d');
    bare.drawImage(images.idle, 0, 0, rig.idle.cellWidth, rig.idle.cellHeight, 0, 0, rig.width, rig.height);
    const plain = bare.getImageData(0, 0, rig.width, rig.height).data;
    assert.ok(difference(plain, silent, rig.width, [rig.width - 60, 10, 45, 30]) > 20, 'an AI mark in the top-right corner');
    assert.equal(difference(plain, silent, rig.width, [0, 10, 45, 30]), 0, 'and nowhere else');
  });

  it('renders POST /v2/videos with the face: the mouth moves while the voice speaks', { timeout: 240_000 }, async () => {
    const created = await t.api('POST', '/v2/videos', {
      face_id: faceId,
      script: 'Hello there. I am a palkit face, and I speak with my own mouth.',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await t.service.deps.jobs.drain(180_000);
    const video = (await t.api('GET', `/v2/videos/${created.body.video_id}`)).body;
    assert.equal(video.status, 'ready', video.error_details);
    const mp4 = Buffer.from(await (await fetch(video.download_url)).arrayBuffer());
    // Frames of the MP4 at 10 fps, 128 × 128 RGBA: the mouth region changes from frame to frame far more
    // than a region of the background does (the photo's idle moves both a little).
    const dir = mkdtempSync(join(tmpdir(), 'palkit-rig-video-test-'));
    try {
      writeFileSync(join(dir, 'v.mp4'), mp4);
      const ffmpeg = locateFfmpeg(undefined);
      assert.ok(!('missing' in ffmpeg));
      const raw = execFileSync(
        ffmpeg.path,
        ['-v', 'error', '-i', join(dir, 'v.mp4'), '-vf', 'fps=10,scale=128:128', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'],
        { maxBuffer: 64 << 20 },
      );
      const size = 128 * 128 * 4;
      const frames = Array.from(
        { length: Math.floor(raw.length / size) },
        (_, i) => new Uint8ClampedArray(raw.subarray(i * size, (i + 1) * size)),
      );
      assert.ok(frames.length >= 20, `${frames.length} frames: the speech lasts seconds`);
      const k = 128 / rig.width;
      const pose = rig.poses[0]!;
      const mouth: [number, number, number, number] = [
        Math.round((pose.x - pose.width / 2) * k),
        Math.round((pose.y - pose.width / 4) * k),
        Math.round(pose.width * k),
        Math.round((pose.width / 2) * k),
      ];
      const background: [number, number, number, number] = [4, 40, mouth[2], mouth[3]];
      const change = (region: [number, number, number, number]) =>
        frames.slice(1).reduce((sum, f, i) => sum + difference(frames[i]!, f, 128, region), 0) / (frames.length - 1);
      assert.ok(
        change(mouth) > change(background) * 3 && change(mouth) > 2,
        `mouth ${change(mouth).toFixed(2)} vs background ${change(background).toFixed(2)} per frame`,
      );
      assert.equal(RIG_VIDEO_FPS, 25);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
