// The demo's "your face" page (demo/site/face.html) as a visitor uses it: Chromium's fake camera plays a
// clip made from the public-domain portrait; the visitor ticks consent, records 8 s, the demo's backend
// uploads it and trains a face, and the call starts with the PAL wearing it: the room's PAL participant
// carries the face's rig, and the PAL's <video> shows frames that change over time (a drawn face, not a still).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/browser.js';
import { PORTRAIT } from '../../helpers/face-clips.js';
import { freePort } from '../../helpers/process.js';
import { demoKeyOf, startDemo, type Demo } from '../../helpers/demo-process.js';
import { pageProbes } from '../../helpers/page-probes.js';
import { eventually } from '../../helpers/e2e-world.js';
import { locateFfmpeg } from '../../../src/server/platform/media/ffmpeg.js';

const SHOTS = process.env.PALKIT_DEMO_FACE_SHOTS; // a folder: the page's screenshots are written there

/** The portrait as a camera would see it: 10 s of 480×360 y4m, zooming and panning slowly (Chromium loops it). */
function cameraClip(dir: string): string {
  const found = locateFfmpeg(undefined);
  if ('missing' in found) throw new Error(found.missing);
  const out = join(dir, 'camera.y4m');
  const zoom = "zoompan=z='1.4+0.05*sin(on/20)':x='iw/2-(iw/zoom/2)+20*sin(on/13)':y='ih/2-(ih/zoom/2)-100':d=1:s=480x360:fps=10";
  execFileSync(found.path, [
    '-v',
    'error',
    '-y',
    '-loop',
    '1',
    '-i',
    PORTRAIT,
    '-t',
    '10',
    '-vf',
    `scale=1024:1024,${zoom}`,
    '-pix_fmt',
    'yuv420p',
    out,
  ]);
  return out;
}

/** 32×32 grey levels of the PAL's <video> as presented now, or null before it has a frame. */
const palFrame = (page: Page) =>
  page.evaluate(() => {
    const video = (window as unknown as { __probes: { inside(h: string, s: string): HTMLVideoElement | null } }).__probes.inside(
      'pal-stage',
      'video.pal',
    );
    // Chromium gives a stream's <video> its size a moment before its first frame can be drawn from it (read
    // then, it is all black): a frame is there once the <video> has its current data.
    if (!video || !video.videoWidth || video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return null;
    const canvas = Object.assign(document.createElement('canvas'), { width: 32, height: 32 });
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(video, 0, 0, 32, 32);
    const data = context.getImageData(0, 0, 32, 32).data;
    return {
      grey: Array.from({ length: 1024 }, (_, i) => (data[i * 4]! + data[i * 4 + 1]! + data[i * 4 + 2]!) / 3),
      live: video.srcObject instanceof MediaStream,
    };
  });

// The three visitors use the demo side by side (each page its own): most of a visit is waiting (8 s of
// recording, the training, the call starting), and one after another they took 3.8 + 23 + 27 s at load 12.
describe('demo: your face', { timeout: 600_000, concurrency: true }, () => {
  let dir: string;
  let demo: Demo;
  let browser: Browser;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palkit-demo-face-'));
    // The demo starts (its own process, seconds) while the camera's clip is made and Chromium starts.
    const starting = startDemo(join(dir, 'data'), await freePort());
    try {
      const camera = cameraClip(dir);
      browser = await launchChromium([`--use-file-for-fake-video-capture=${camera}`]);
    } finally {
      demo = await starting;
    }
  });
  after(async () => {
    await browser?.close();
    await demo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a photo with no face in it: the page says the trainer's reason, and no call starts", async () => {
    const found = locateFfmpeg(undefined);
    if ('missing' in found) throw new Error(found.missing);
    const pattern = join(dir, 'pattern.png');
    execFileSync(found.path, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=1', '-frames:v', '1', pattern]);
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.goto(`${demo.url}/demo/face.html?demo_key=${demoKeyOf(demo)}`);
    assert.equal(await page.locator('#photo').isDisabled(), true, 'no upload before consent');
    await page.locator('#consent').check();
    await page.locator('#photo').setInputFiles(pattern);
    const status = page.locator('#status.bad');
    await status.waitFor({ timeout: 180_000 });
    const text = await status.textContent();
    console.log(`# no face: ${text}`);
    assert.match(text ?? '', /^Training failed: .*face/i);
    assert.equal(await page.locator('pal-conversation').count(), 0);
    await page.close();
  });

  for (const width of [1366, 390]) {
    it(`records the visitor with consent, trains the face and calls with it (${width} px)`, async () => {
      const height = width > 500 ? 860 : 844;
      const page = await browser.newPage({ viewport: { width, height } });
      await page.addInitScript(pageProbes);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // The room's frames as the page receives them: the PAL participant names its face's rig.
      const rigs: string[] = [];
      page.on('websocket', (ws) =>
        ws.on('framereceived', ({ payload }) => {
          if (typeof payload !== 'string' || !payload.includes('face_rig_url')) return;
          const frame = JSON.parse(payload) as { participants?: Array<Record<string, unknown>>; participant?: Record<string, unknown> };
          for (const p of [...(frame.participants ?? []), ...(frame.participant ? [frame.participant] : [])])
            if (p.role === 'pal' && typeof p.face_rig_url === 'string') rigs.push(p.face_rig_url);
        }),
      );
      await page.goto(`${demo.url}/demo/face.html?demo_key=${demoKeyOf(demo)}`);

      assert.equal(await page.locator('#record').isDisabled(), true, 'nothing is recorded before consent');
      await page.locator('#consent').check();
      await page.locator('#record').waitFor({ state: 'visible' });
      await page.waitForFunction(() => (document.getElementById('preview') as HTMLVideoElement).videoWidth > 0);
      await page.locator('#record').click();
      await page.locator('#countdown').waitFor({ state: 'visible' });
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, `face-demo-record-${width}.png`) });
      }
      await page.locator('#status', { hasText: 'Learning your face' }).waitFor({ timeout: 30_000 });
      await page.locator('pal-conversation').waitFor({ state: 'attached', timeout: 240_000 });
      await page.locator('pal-conversation pal-stage [part="pal"]').first().waitFor({ state: 'attached', timeout: 60_000 });
      // The call opens where the visitor sees it: not below the fold on a phone, its controls not cut at a
      // laptop's bottom edge (issue 54).
      await eventually(
        () =>
          page.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('pal-conversation')!.getBoundingClientRect())) as DOMRect),
        // Within a pixel: scroll positions are whole pixels, layout is not (a bottom at 860.27).
        (box) => box.top >= -1 && box.bottom <= height + 1 && box.height > height / 2,
        `the call whole in view at ${width}×${height}`,
        3000,
      );

      // The PAL's tile is the trained face drawn from its rig: the room named the rig, and the <video> moves.
      const deadline = Date.now() + 60_000;
      while (rigs.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.ok(rigs.length > 0, 'the PAL participant carries face_rig_url');
      assert.match(rigs[0]!, new RegExp(`^${demo.url.replace('localhost', '(localhost|127\\.0\\.0\\.1)')}/media/`));
      assert.equal((await fetch(rigs[0]!.replace('localhost', '127.0.0.1'))).status, 200, 'the rig is served');
      const frames: number[][] = [];
      while (frames.length < 12 && Date.now() < deadline + 60_000) {
        // Until the rig is loaded the tile may show the face's thumbnail video; the drawn face is a stream.
        const f = await palFrame(page);
        if (f?.live) frames.push(f.grey);
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(frames.length >= 12, `sampled ${frames.length} frames of the PAL's drawn face (a MediaStream from the rig)`);
      const diffs = frames.slice(1).map((f, i) => f.reduce((s, v, j) => s + Math.abs(v - frames[i]![j]!), 0) / f.length);
      const mean = frames[0]!.reduce((s, v) => s + v, 0) / 1024;
      console.log(
        `# ${width} px: PAL video mean grey ${mean.toFixed(0)}, frame-to-frame change ${diffs.map((d) => d.toFixed(2)).join(' ')}`,
      );
      assert.ok(mean > 10, 'the PAL video is not black');
      assert.ok(diffs.filter((d) => d > 0.05).length >= 3, "the PAL's face moves over time");
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `face-demo-call-${width}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
