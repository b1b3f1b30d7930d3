// With only node on PATH (no ffmpeg, ffprobe or espeak-ng from the system) the service still trains faces
// and renders videos: its ffmpeg comes from npm (@ffmpeg-installer/<os>-<arch>). Before, training skipped
// the probe and the thumbnail ("ffprobe is not installed") and rendering failed ("ffmpeg … not installed").
// Imports only what predates the bundled ffmpeg, so it runs against older code too.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLocalRenderer } from '../../../../src/server/resources/videos/render/local-renderer.js';
import { encodeWav as wav } from '../../../../src/server/platform/audio/wav.js';
import { startFileServer, waitUntil } from '../../../helpers/loopback.js';
import { mediaFixture } from '../../../helpers/media-fixtures.js';
import { portraitClip } from '../../../helpers/face-clips.js';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';

// A clip with a real face (the test pattern has none: training would end in error).
const mp4 = portraitClip(2);
const jpg = readFileSync(mediaFixture('sample-face.jpg'));

/** A 440 Hz tone as 16-bit mono WAV. */
function tone(seconds: number, rate = 16_000): Uint8Array {
  const samples = new Int16Array(seconds * rate).map((_, i) => Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000));
  return wav(samples, rate);
}

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: the media tools found with node alone on PATH';

describe('media with only node on PATH', { skip }, () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let nodeOnly: string;
  let savedPath: string | undefined;
  before(async () => {
    nodeOnly = mkdtempSync(join(tmpdir(), 'palkit-node-only-'));
    symlinkSync(process.execPath, join(nodeOnly, 'node'));
    savedPath = process.env.PATH;
    process.env.PATH = nodeOnly;
    t = await startListeningService();
    files = await startFileServer({ '/face.mp4': { body: mp4, contentType: 'video/mp4' } });
  });
  after(async () => {
    await t?.close();
    await files?.close();
    process.env.PATH = savedPath;
    rmSync(nodeOnly, { recursive: true, force: true });
  });

  it('trains a face over HTTP: the video is probed and a JPEG thumbnail stored', async () => {
    const created = await t.api('POST', '/v2/faces', { face_name: 'Node only', train_video_url: `${files.url}/face.mp4` });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    let face: any;
    await waitUntil(
      async () => (face = (await t.api('GET', `/v2/faces/${created.body.face_id}`)).body).status !== 'training',
      30_000,
      'training',
    );
    assert.equal(face.status, 'completed', JSON.stringify(face));
    assert.ok(face.thumbnail_image_url, `a still image was extracted: ${JSON.stringify(face)}`);
    const image = await fetch(face.thumbnail_image_url);
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
    const jpeg = Buffer.from(await image.arrayBuffer());
    assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
    assert.ok(jpeg.length > 1000, `${jpeg.length} bytes`);
    const row = await t.service.deps.db
      .selectFrom('faces')
      .select('training_details')
      .where('face_id', '=', created.body.face_id)
      .executeTakeFirstOrThrow();
    const details = (typeof row.training_details === 'string' ? JSON.parse(row.training_details) : row.training_details) as Record<
      string,
      unknown
    >;
    assert.deepEqual(details.probe, { duration_seconds: 2, width: 384, height: 384, video_codec: 'h264', has_audio: false }); // portraitClip(2): silent, 384 px square
    assert.equal(details.probe_skipped, undefined);
    assert.equal(details.thumbnail_skipped, undefined);
  });

  it('renders a talking-face video (MP4 with audio, JPEG still, GIF preview) over a tone', async () => {
    const renderer = createLocalRenderer({ searchPath: nodeOnly });
    const video = await renderer.renderVideo({
      speech: { bytes: tone(1), contentType: 'audio/wav', extension: 'wav', durationSeconds: 1 },
      face: { kind: 'image', bytes: jpg },
    });
    assert.equal(Buffer.from(video.mp4.subarray(4, 8)).toString('latin1'), 'ftyp');
    assert.ok(Buffer.from(video.mp4).includes('mp4a'), 'an AAC audio track');
    assert.ok(Buffer.from(video.mp4).includes('avc1'), 'an H.264 video track');
    assert.equal(video.durationSeconds, 1);
    assert.deepEqual([...video.still.subarray(0, 2)], [0xff, 0xd8]);
    assert.equal(Buffer.from(video.gif.subarray(0, 4)).toString('latin1'), 'GIF8');
  });
});
