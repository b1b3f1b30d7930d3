// Videos render in a box (issue 52, N32): a trained face's frames are drawn in a process of their own at the
// lowest priority, ended past its memory cap and when its video is deleted; past the instance's render slots
// an owner's videos wait, queued (status `generating`, status_details `Queued`, queue_position in a verbose
// read), up to a per-owner bound past which a create answers 429. The rig is drawn like a made one
// (test/helpers/drawn-rig.ts); the figures of a real service under ten videos are in the real-time tier
// (test/realtime/chaos-video-renders.test.ts).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import { locateFfmpeg } from '../../../../src/server/platform/media/ffmpeg.js';
import { systemClock } from '../../../../src/server/platform/time.js';
import { RenderError } from '../../../../src/server/resources/videos/render/contract.js';
import { renderFaceVideoInProcess, rigFace, rigRenderStarted } from '../../../../src/server/resources/videos/render/rig-render-process.js';
import type { RigVideoInput } from '../../../../src/server/resources/videos/render/rig-video.js';
import { VISEMES } from '../../../../src/protocol/visemes.js';
import { MOUTH_SHEET, SIZE, drawnRig, paintIdle, paintMouths } from '../../../helpers/drawn-rig.js';
import { insertFace } from '../../../helpers/media-gen.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { OTHER_KEY, startTestService, onPostgres, type TestService } from '../../../helpers/service.js';

async function drawnInput(seconds: number): Promise<RigVideoInput> {
  const idle = createCanvas(SIZE, SIZE);
  paintIdle(idle.getContext('2d'));
  const mouths = createCanvas(MOUTH_SHEET.width, MOUTH_SHEET.height);
  paintMouths(mouths.getContext('2d'));
  const cues = Array.from({ length: seconds * 10 }, (_, i) => ({ atMs: i * 100, viseme: VISEMES[i % VISEMES.length]! }));
  return {
    rig: drawnRig(),
    idle: new Uint8Array(await idle.encode('png')),
    mouths: new Uint8Array(await mouths.encode('png')),
    cues,
    durationSeconds: seconds,
  };
}

/** The renderers started while `work` runs. */
async function watchRenderers<T>(work: (started: ChildProcess[]) => Promise<T>): Promise<T> {
  const started: ChildProcess[] = [];
  const onStart = (message: unknown) => started.push((message as { child: ChildProcess }).child);
  subscribe(rigRenderStarted.name, onStart);
  try {
    return await work(started);
  } finally {
    unsubscribe(rigRenderStarted.name, onStart);
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

// The renderer's process is not the database: the PostgreSQL leg runs only the queue below.
const skip = onPostgres && 'PGlite only: the renderer process opens no database';

describe("a trained face's video drawn in the video renderer's process", { timeout: 60_000, skip }, () => {
  const ffmpeg = locateFfmpeg(undefined);
  const path = 'path' in ffmpeg ? ffmpeg.path : '';

  it('draws the MP4 there, in a process ended with its video', async () => {
    await watchRenderers(async (started) => {
      const signal = new AbortController().signal;
      const rendering = renderFaceVideoInProcess(rigFace(await drawnInput(1)), { clock: systemClock, ffmpeg: path, memoryMb: 600, signal });
      const mp4 = await rendering;
      assert.equal(Buffer.from(mp4.subarray(4, 8)).toString('latin1'), 'ftyp', 'an MP4');
      assert.equal(started.length, 1, 'one renderer for the video');
      assert.ok(started[0]!.pid !== process.pid);
      await exited(started[0]!);
    });
  });

  it('runs at the lowest priority and is ended at once when aborted, its ffmpeg with it', async () => {
    await watchRenderers(async (started) => {
      const abort = new AbortController();
      const rendering = renderFaceVideoInProcess(rigFace(await drawnInput(120)), {
        clock: systemClock,
        ffmpeg: path,
        memoryMb: 600,
        signal: abort.signal,
      });
      while (!started.length) await new Promise((resolve) => setImmediate(resolve));
      const pid = started[0]!.pid!;
      assert.equal(getPriority(pid), 19, 'the lowest CPU priority');
      // Drawing: its ffmpeg is running (a child of the renderer).
      const encoder = await waitFor(
        () => Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || undefined,
        { what: 'its ffmpeg to start' },
      );
      abort.abort(new Error('deleted'));
      await assert.rejects(rendering, /deleted/);
      await exited(started[0]!);
      assert.equal(started[0]!.signalCode, 'SIGKILL');
      const alive = () => existsSync(`/proc/${encoder}`) && !/State:\s+Z/.test(readFileSync(`/proc/${encoder}/status`, 'utf8'));
      await waitFor(() => !alive(), { timeout: 2000, what: 'its ffmpeg to end with it' });
    });
  });

  it('is ended past its memory cap, with an error that says so', async () => {
    // Node and the canvas addon alone are past 64 MB: the first report ends it.
    await assert.rejects(
      renderFaceVideoInProcess(rigFace(await drawnInput(5)), {
        clock: systemClock,
        ffmpeg: path,
        memoryMb: 64,
        signal: new AbortController().signal,
      }),
      (error: Error) => error instanceof RenderError && /its cap is 64 MB/.test(error.message),
    );
  });
});

describe('videos past the render slots wait, queued, to a per-owner bound', { timeout: 240_000 }, () => {
  let t: TestService;
  let face: string;
  before(async () => {
    t = await startTestService({ PALKIT_VIDEO_QUEUE_PER_OWNER: '11', PALKIT_VIDEO_RENDERS: '1' }, { runJobs: false });
    face = await insertFace(t, 1, { video: false });
  });
  after(() => t.close());

  // Its own bound: the runner's default (--test-timeout, 120 s) applies to a test, not its describe's; it took 85-94 s.
  it(
    'the 11th video of an owner is queued, named so with its place, and renders; the 12th is refused 429',
    { timeout: 240_000 },
    async () => {
      const ids: string[] = [];
      for (let i = 0; i < 11; i++) {
        const created = await t.api('POST', '/v2/videos', { face_id: face, script: `Video ${i + 1}.` });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        assert.equal(created.body.status, 'generating', "the interface's status");
        assert.equal(created.body.status_details, 'Queued');
        ids.push(created.body.video_id);
      }
      const eleventh = await t.api('GET', `/v2/videos/${ids[10]}?verbose=true`);
      assert.equal(eleventh.body.queue_position, 11);
      assert.equal((await t.api('GET', `/v2/videos/${ids[0]}?verbose=true`)).body.queue_position, 1);
      assert.equal((await t.api('GET', `/v2/videos/${ids[0]}`)).body.queue_position, undefined, 'only in a verbose read');

      const refused = await t.api('POST', '/v2/videos', { face_id: face, script: 'One too many.' });
      assert.equal(refused.status, 429);
      assert.match(refused.body.error, /^too_many_queued: 11 videos/);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      const other = await t.api(
        'POST',
        '/v2/videos',
        { face_id: await insertFace(t, 2, { video: false }), script: 'Another owner.' },
        { key: OTHER_KEY },
      );
      assert.equal(other.status, 200, 'another owner is not affected');

      // One of an owner's videos runs at a time: while the first renders, the rest keep their places.
      t.service.deps.jobs.start();
      const first = await waitFor(
        async () => {
          const video = (await t.api('GET', `/v2/videos/${ids[0]}?verbose=true`)).body;
          return video.status_details !== 'Queued' && video;
        },
        { interval: 5, what: 'the first video to start' },
      );
      assert.equal(first.queue_position, null);
      const rest = await Promise.all(ids.slice(1).map(async (id) => (await t.api('GET', `/v2/videos/${id}?verbose=true`)).body));
      const waiting = rest.filter((v) => v.status_details === 'Queued');
      assert.ok(waiting.length >= 9, `the others wait (${waiting.length} queued)`);
      await t.service.deps.jobs.drain(120_000);
      const done = await Promise.all(ids.map(async (id) => (await t.api('GET', `/v2/videos/${id}`)).body));
      assert.deepEqual(
        done.map((v) => v.status),
        ids.map(() => 'ready'),
        done.map((v) => v.error_details).join(' | '),
      );
      assert.equal((await t.api('POST', '/v2/videos', { face_id: face, script: 'Room again.' })).status, 200, 'finished videos make room');
    },
  );
});
