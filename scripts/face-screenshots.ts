// `npx tsx scripts/face-screenshots.ts [portrait.jpg]`: pictures of a trained face speaking in a call, at 1366
// and 390 px, in Chromium (docs/face-trained-{1366,390}.png). The face is trained from a photo (default: the
// shared public-domain portrait) by the service's own trainer (faces/rig/train.ts: FaceMesh landmarks, the
// generated idle loop, a mesh-warped mouth per viseme), the same steps a face's training job runs. The demo's
// widget call then gets the rig's URL on its PAL (added to the room's frames on their way to the page; the
// demo's PAL has Ada, and the demo has no keyed API to train through).
// Look at them before committing: a picture taken between words shows a closed mouth.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { locateFfmpeg } from '../src/server/platform/media/ffmpeg.js';
import { analyseFace, makeRig } from '../src/server/resources/faces/rig/train.js';

const portrait = process.argv[2] ?? '../shared/fixtures/portrait-collins.jpg';
const WIDTHS = [1366, 390] as const;
const HEIGHT = { 1366: 800, 390: 844 } as const;
const QUESTION = 'What is the weather usually like there in autumn?';

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, () => {
    const { port: free } = probe.address() as { port: number };
    probe.close(() => resolve(free));
  });
});
const demo = spawn(process.execPath, ['dist/demo-service/start.js', '--port', String(port)], { env: { ...process.env, PALKIT_DATA: 'memory' }, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
demo.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
await new Promise<void>((resolve, reject) => {
  demo.stdout!.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
    if (log.includes('palkit is running at')) resolve();
  });
  demo.once('exit', (code) => reject(new Error(`the demo exited (${code}) before it was ready:\n${log}`)));
});
const base = `http://localhost:${port}`;

/** The rig's files from the service's own trainer (what a face's training job runs on `train_video_url`). */
async function trainRig(): Promise<Map<string, { body: Buffer; type: string }>> {
  const ffmpeg = locateFfmpeg(undefined);
  if ('missing' in ffmpeg) throw new Error(ffmpeg.missing);
  const started = performance.now();
  const analysis = await analyseFace(ffmpeg.path, portrait, { still: true });
  const files = await makeRig(ffmpeg.path, portrait, analysis);
  console.log(`trained from ${portrait} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${files.rig.idle.count} idle frames; visemes from footage: ${files.footage.join(' ') || 'none'}; warped: ${files.warped.join(' ')}`);
  return new Map([
    ['rig.json', { body: Buffer.from(JSON.stringify(files.rig)), type: 'application/json' }],
    [files.rig.idle.url, { body: Buffer.from(files.idle), type: 'image/jpeg' }],
    [files.rig.mouths.sheet.url, { body: Buffer.from(files.mouths), type: 'image/webp' }],
  ]);
}

const palSpeaking = `(() => {
  const impl = document.querySelector('pal-widget')?.shadowRoot?.querySelector('pal-widget-impl');
  return impl?.session?.participants?.some((p) => p.role === 'pal' && p.speaking) === true;
})()`;

const browser = await chromium.launch({
  executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const files = await trainRig();
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: HEIGHT[width] }, permissions: ['camera', 'microphone'], deviceScaleFactor: 1, bypassCSP: true });
    await context.route('**/trained-face/*', (route) => {
      const file = files.get(new URL(route.request().url()).pathname.split('/').pop()!);
      return file ? route.fulfill({ status: 200, contentType: file.type, body: file.body, headers: { 'cache-control': 'max-age=3600' } }) : route.fulfill({ status: 404 });
    });
    await context.routeWebSocket(/\/rooms\//, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (typeof message !== 'string') return ws.send(message);
        const frame = JSON.parse(message) as { participants?: Array<Record<string, unknown>>; participant?: Record<string, unknown> };
        for (const p of [...(frame.participants ?? []), ...(frame.participant ? [frame.participant] : [])]) if (p.role === 'pal') p.face_rig_url = `${base}/trained-face/rig.json`;
        ws.send(JSON.stringify(frame));
      });
    });
    const page = await context.newPage();
    await page.goto(`${base}/demo/widget.html`);
    await page.locator('pal-widget').getByRole('button').first().click();
    await page.locator('pal-widget [part=start]').click();
    await page.getByRole('button', { name: /join/i }).first().click();
    await page.locator('pal-widget').getByRole('toolbar').waitFor();
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    if (await dismiss.count()) await dismiss.first().click().catch(() => undefined);
    // Her greeting over, a question by the element's method; the picture a moment into her answer.
    await page.waitForFunction(palSpeaking, undefined, { timeout: 30_000 });
    await page.waitForFunction(`!${palSpeaking}`, undefined, { timeout: 30_000 });
    await page.evaluate(`document.querySelector('pal-widget').sendChat(${JSON.stringify(QUESTION)})`);
    await page.waitForFunction(palSpeaking, undefined, { timeout: 30_000 });
    // Five pictures 200 ms apart from a moment into her answer (a single one may fall between words): the
    // first goes to docs/, the rest to the temporary folder, to be looked at and the most open one kept.
    await page.waitForTimeout(700);
    for (let shot = 0; shot < 5; shot++) {
      const path = shot ? join(tmpdir(), `face-trained-${width}-${shot}.png`) : `docs/face-trained-${width}.png`;
      await page.screenshot({ path });
      console.log(path);
      await page.waitForTimeout(200);
    }
    await context.close();
  }
} finally {
  await browser.close();
  demo.kill('SIGTERM');
}
