// `npx tsx scripts/face-screenshots.ts [portrait.jpg]`: pictures of a trained face speaking in a call, at 1366
// and 390 px, in Chromium (docs/face-trained-{1366,390}.png). The face is trained from a photo (default: the
// shared public-domain portrait) through the demo service's own API, as a customer trains one (POST
// /v2/faces with the photo on a loopback URL: FaceMesh landmarks, a generated idle loop, a mesh-warped mouth
// per viseme). The demo's widget call then gets the served rig's URL on its PAL (added to the room's frames
// on their way to the page: the demo's seeded PAL speaks with Ada).
// Look at them before committing: a picture taken between words shows a closed mouth.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { chromium } from 'playwright-core';
import { startDemo } from '../test/helpers/demo-process.js';
import { freePort } from '../test/helpers/process.js';

const portrait = process.argv[2] ?? '../shared/fixtures/portrait-collins.jpg';
const WIDTHS = [1366, 390] as const;
const HEIGHT = { 1366: 800, 390: 844 } as const;
const QUESTION = 'What is the weather usually like there in autumn?';

const KEY = 'face-screenshots-key';
const demo = await startDemo('memory', await freePort(), { PALKIT_API_KEYS: `${KEY}:1` });
const base = demo.url;

/** Trains the portrait through the service's API, as a customer does (POST /v2/faces): its rig's URL. */
async function trainFace(): Promise<string> {
  const photo = readFileSync(portrait);
  const files = createHttpServer((_, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
  try {
    const started = performance.now();
    const trainUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}/portrait.jpg`;
    const created = (await (
      await fetch(`${base}/v2/faces`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ face_name: 'Portrait', train_video_url: trainUrl }),
      })
    ).json()) as { face_id?: string };
    if (!created.face_id) throw new Error(`POST /v2/faces: ${JSON.stringify(created)}`);
    for (;;) {
      const face = (await (await fetch(`${base}/v2/faces/${created.face_id}?verbose=true`, { headers })).json()) as Record<string, unknown>;
      if (face.status === 'completed' && typeof face.face_rig_url === 'string') {
        console.log(
          `trained ${created.face_id} from ${portrait} in ${((performance.now() - started) / 1000).toFixed(1)} s; visemes from footage: ${String(face.visemes_from_footage ?? '')}; rig ${face.face_rig_url}`,
        );
        return face.face_rig_url;
      }
      if (face.status === 'error' || performance.now() - started > 180_000) throw new Error(`training: ${JSON.stringify(face)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    files.close();
  }
}

const palSpeaking = `(() => {
  const impl = document.querySelector('pal-widget')?.shadowRoot?.querySelector('pal-widget-impl');
  return impl?.session?.participants?.some((p) => p.role === 'pal' && p.speaking) === true;
})()`;

const browser = await chromium.launch({
  executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ],
});
try {
  const rigUrl = await trainFace();
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: HEIGHT[width] },
      permissions: ['camera', 'microphone'],
      deviceScaleFactor: 1,
      bypassCSP: true,
    });
    await context.routeWebSocket(/\/rooms\//, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (typeof message !== 'string') return ws.send(message);
        const frame = JSON.parse(message) as { participants?: Array<Record<string, unknown>>; participant?: Record<string, unknown> };
        for (const p of [...(frame.participants ?? []), ...(frame.participant ? [frame.participant] : [])])
          if (p.role === 'pal') p.face_rig_url = rigUrl;
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
    if (await dismiss.count())
      await dismiss
        .first()
        .click()
        .catch(() => undefined);
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
  await demo.stop();
}
