// A generated video's mouth follows its sound at the file (issue 51, point 6): measured with FaceMesh on the
// MP4's frames against its own audio (test/helpers/video-lip-sync.ts), the mouth of a face trained from the
// portrait photo led its sound by 100–120 ms with a correlation of 0.16–0.22. Bars: the lead within ±60 ms,
// the correlation at it ≥ 0.3. Ada, the built-in face, is held to the same bars.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { portraitPhoto } from '../../../helpers/face-clips.js';
import { startFileServer } from '../../../helpers/loopback.js';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';
import { fileLipSync } from '../../../helpers/video-lip-sync.js';

const SCRIPT =
  'Hello there. My name is Sam, and I would like to show you around. We open at nine in the morning, and the shop is just across the bridge from the station.';

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && "PGlite only: the mouth against its sound in the MP4; video rows are videos.test's";

describe("a generated video's mouth against its sound, at the file", { timeout: 300_000, skip }, () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let dir: string;
  before(async () => {
    t = await startListeningService();
    files = await startFileServer({ '/face.jpg': { body: portraitPhoto('jpg'), contentType: 'image/jpeg' } });
    dir = mkdtempSync(join(tmpdir(), 'palkit-lip-sync-file-'));
  });
  after(async () => {
    await t.close();
    await files.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function measured(faceId: string, name: string) {
    const created = await t.api('POST', '/v2/videos', { face_id: faceId, script: SCRIPT });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await t.service.deps.jobs.drain(180_000);
    const video = (await t.api('GET', `/v2/videos/${created.body.video_id}`)).body;
    assert.equal(video.status, 'ready', video.error_details);
    const path = join(dir, `${name}.mp4`);
    writeFileSync(path, Buffer.from(await (await fetch(video.download_url)).arrayBuffer()));
    const sync = await fileLipSync(path);
    console.log(
      `# lip sync at the file (${name}): mouth leads its sound by ${sync.leadMs} ms, correlation ${sync.correlation.toFixed(2)} there (${sync.correlationAtZero.toFixed(2)} at 0 ms); a face in ${sync.found} of ${sync.frames} frames`,
    );
    assert.ok(sync.found >= sync.frames * 0.9, 'the face is found in the frames');
    assert.ok(Math.abs(sync.leadMs) <= 60, `the mouth leads by ${sync.leadMs} ms`);
    assert.ok(sync.correlation >= 0.3, `correlation ${sync.correlation.toFixed(2)}`);
  }

  // Each test's own bound: the runner's default (--test-timeout) applies to a test, not its describe's.
  it('a trained face: the mouth within ±60 ms of its sound, correlation ≥ 0.3', { timeout: 300_000 }, async () => {
    const faceId = (await t.api('POST', '/v2/faces', { face_name: 'Speaker', train_video_url: `${files.url}/face.jpg` })).body.face_id;
    await t.service.deps.jobs.drain(180_000);
    await measured(faceId, 'trained face');
  });

  it('Ada, the built-in face: the same bars', { timeout: 300_000 }, async () => {
    await measured('rpalkitada', 'Ada');
  });
});
