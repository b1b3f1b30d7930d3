// Chaos (issue 52, N32): one owner's batch of videos of a trained face must not exhaust the host. Drawn on
// the service's thread, 10 videos of 1,000 characters took the service from 1,026 to 3,728 MB in 2.5 min
// (native memory V8 does not see) and another owner's first audio from 13 to 371 ms (p95); deleting them
// did not stop their renders. Now each video's frames are drawn in a process of its own (capped, lowest
// priority, one at a time per instance, the rest queued): owner 2 queues 10 such videos (400 characters each)
// while owner 1's visitor asks its PAL a short question a second, until one has finished and 20 replies are
// measured (or 4 min);
// then the video rendering at the time is deleted and its renderer must be gone within a second.
// Bars: the service's own RSS stays within +300 MB of its quiet figure; owner 1's first audio p95 < 200 ms
// (or within 50 ms of its quiet p95 where that is already near 200 ms: a shared, loaded machine).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { percentile, replyMs, startChaosService, type ChaosService } from '../helpers/chaos.js';
import { portraitPhoto } from '../helpers/face-clips.js';
import { sleep } from '../helpers/live-fixtures.js';
import { startFileServer } from '../helpers/loopback.js';

const OWNER_2 = 'chaos-key-owner-2';
const VIDEOS = 10;
const SCRIPT =
  Array.from({ length: 200 }, (_, i) => ['our', 'new', 'offer', 'starts', 'today', 'for', 'you'][i % 7])
    .join(' ')
    .slice(0, 399) + '.';

/** The service's video renderers (node processes running rig-render-entry, or the bundle's video-renderer.js), by pid. */
function renderers(servicePid: number): number[] {
  try {
    const children = readFileSync(`/proc/${servicePid}/task/${servicePid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return children.filter((pid) => {
      try {
        return /rig-render-entry|video-renderer\.js/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}

const running = (pid: number) => {
  try {
    return !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

describe(
  "chaos: one owner's ten videos of a trained face while another owner's call goes on",
  { timeout: 480_000, skip: onPostgres && 'runs once, on the PGlite leg' },
  () => {
    let service: ChaosService;
    let files: Awaited<ReturnType<typeof startFileServer>>;
    const owner2 = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(service.process.url + path, {
        method,
        headers: { 'x-api-key': OWNER_2, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await r.text();
      return { status: r.status, body: text ? (JSON.parse(text) as any) : null };
    };

    before(async () => {
      service = await startChaosService({ PALKIT_API_KEYS: `chaos-key:1,${OWNER_2}:2` });
      files = await startFileServer({ '/photo.jpg': { body: portraitPhoto('jpg'), contentType: 'image/jpeg' } });
    });
    after(async () => {
      await service?.stop();
      await files?.close();
    });

    it("keeps the service's memory and the other call's first audio, and a deleted video's render stops within a second", async () => {
      const created = await owner2('POST', '/v2/faces', { face_name: 'Batch', train_video_url: `${files.url}/photo.jpg` });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      for (;;) {
        const face = (await owner2('GET', `/v2/faces/${created.body.face_id}`)).body;
        if (face.status !== 'training') {
          assert.equal(face.status, 'completed', face.error_message);
          break;
        }
        await sleep(250);
      }
      const { client } = await service.call();
      try {
        const quiet: number[] = [];
        for (let i = 0; i < 12; i++) {
          quiet.push(await replyMs(client));
          await sleep(200);
        }
        const quietRss = service.rssMb();

        const ids: string[] = [];
        for (let i = 0; i < VIDEOS; i++) {
          const video = await owner2('POST', '/v2/videos', { face_id: created.body.face_id, script: SCRIPT });
          assert.equal(video.status, 200, JSON.stringify(video.body));
          ids.push(video.body.video_id);
        }
        const busy: number[] = [];
        let maxRss = quietRss;
        let maxRenderers = 0;
        let ready = 0;
        const until = Date.now() + 240_000;
        while (busy.length < 20 || (ready < 1 && Date.now() < until)) {
          busy.push(await replyMs(client, 30_000));
          maxRss = Math.max(maxRss, service.rssMb());
          maxRenderers = Math.max(maxRenderers, renderers(service.process.child.pid!).length);
          await sleep(1000); // a visitor's pace: a question a second or so
          if (busy.length % 4 === 0)
            ready = ((await owner2('GET', '/v2/videos?limit=20')).body.data as Array<{ status: string }>).filter(
              (v) => v.status === 'ready',
            ).length;
        }
        service.assertAlive();

        // The video rendering now is deleted: its renderer is gone within a second.
        const pid = await (async () => {
          for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(50)) {
            const found = renderers(service.process.child.pid!)[0];
            if (found) return found;
          }
          throw new Error('no video renderer started');
        })();
        const views = await Promise.all(ids.map(async (id) => (await owner2('GET', `/v2/videos/${id}?verbose=true`)).body));
        const rendering = views.find((v) => v.status === 'generating' && v.status_details === 'Rendering the video');
        assert.ok(rendering, `a video renders: ${views.map((v) => `${v.status}/${v.status_details}`).join(', ')}`);
        const deletedAt = performance.now();
        assert.equal((await owner2('DELETE', `/v2/videos/${rendering.video_id}`)).status, 200);
        while (running(pid) && performance.now() - deletedAt < 5000) await sleep(10);
        const stoppedMs = performance.now() - deletedAt;
        const queued = views.filter((v) => v.status_details === 'Queued');

        console.log(
          `# video renders: ${VIDEOS} videos of ${SCRIPT.length} characters of a trained face queued by owner 2 (${ready} ready while measured; then ${views.map((v) => (v.status === 'generating' ? v.status_details : v.status)).join(', ')}; queue positions ${queued.map((v) => v.queue_position).join(',')}); ` +
            `service RSS quiet ${quietRss.toFixed(0)} MB, up to ${maxRss.toFixed(0)} MB (+${(maxRss - quietRss).toFixed(0)} MB); renderers at once up to ${maxRenderers}; ` +
            `owner 1's first audio quiet p50 ${percentile(quiet, 50).toFixed(0)} ms p95 ${percentile(quiet, 95).toFixed(0)} ms, during p50 ${percentile(busy, 50).toFixed(0)} ms p95 ${percentile(busy, 95).toFixed(0)} ms max ${Math.max(...busy).toFixed(0)} ms (${busy.length} replies); ` +
            `a deleted video's renderer gone ${stoppedMs.toFixed(0)} ms after the DELETE`,
        );
        assert.ok(ready >= 1, 'a video finished while measured');
        assert.ok(maxRss - quietRss < 300, `the service's RSS grew ${(maxRss - quietRss).toFixed(0)} MB`);
        assert.ok(maxRenderers <= 1, `one renderer at a time (${maxRenderers})`);
        // The issue's bar is 200 ms; on a machine whose quiet p95 is near it already (a shared 2-core host), 50 ms over the quiet one.
        assert.ok(
          percentile(busy, 95) < Math.max(200, percentile(quiet, 95) + 50),
          `owner 1's first audio p95 ${percentile(busy, 95).toFixed(0)} ms: ${busy.map((r) => r.toFixed(0)).join(', ')}`,
        );
        assert.ok(stoppedMs < 1000, `the deleted video's renderer ran on ${stoppedMs.toFixed(0)} ms`);
      } finally {
        client.close();
      }
    });
  },
);
