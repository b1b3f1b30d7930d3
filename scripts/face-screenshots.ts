// `npx tsx scripts/face-screenshots.ts [portrait.jpg]`: pictures of a trained face speaking in a call, at 1366
// and 390 px, in Chromium (docs/face-trained-{1366,390}.png). Until the service trains faces itself, the rig
// is made here from a photo (default: the shared public-domain portrait), the way a photo's rig is made: its
// face cropped to 640×640 for a short idle loop (a slight sway), and a mouth per viseme warped from its own
// mouth (the lower lip and jaw moved down, the opening darkened), feathered at the edges. The demo's widget
// call then gets the rig's URL on its PAL (added to the room's frames on their way to the page).
// Look at them before committing: a picture taken between words shows a closed mouth.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Page } from 'playwright-core';

const portrait = process.argv[2] ?? '../shared/fixtures/portrait-collins.jpg';
/** Where the portrait's face is (its 512×512 pixels): a square around it, and the mouth in the 640×640 crop. */
const CROP = { x: 96, y: 0, size: 256 };
const MOUTH = { x: 320, y: 362, width: 100 };
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

/** The rig's files, made in a page from the portrait (a string: the page runs it as written). */
async function makeRig(page: Page): Promise<Map<string, { body: Buffer; type: string }>> {
  const photo = `data:image/jpeg;base64,${readFileSync(portrait).toString('base64')}`;
  const files = await page.evaluate<{ rig: string; idle: string; mouths: string }>(`(async () => {
    const photo = await createImageBitmap(await (await fetch(${JSON.stringify(photo)})).blob());
    const canvas = (w, h) => { const c = document.createElement('canvas'); c.width = w; c.height = h; return [c, c.getContext('2d')]; };
    const [face, f] = canvas(640, 640);
    f.drawImage(photo, ${CROP.x}, ${CROP.y}, ${CROP.size}, ${CROP.size}, 0, 0, 640, 640);
    // The idle loop: 24 frames of a slow sway (a photo has no footage), the mouth's pose following it.
    const frames = 24, columns = 6;
    const [idle, i] = canvas(640 * columns, 640 * 4);
    const poses = [];
    for (let n = 0; n < frames; n++) {
      const angle = Math.sin((n / frames) * 2 * Math.PI) * 0.012;
      const dy = Math.sin((n / frames) * 4 * Math.PI) * 1.5;
      const [x, y] = [(n % columns) * 640, Math.floor(n / columns) * 640];
      i.save();
      i.beginPath(); i.rect(x, y, 640, 640); i.clip();
      i.translate(x + 320, y + 600 + dy); i.rotate(angle); i.translate(-320, -600);
      i.drawImage(face, -10, -10, 660, 660);
      i.restore();
      // The mouth where this frame drew it: the face drawn 660/640 larger from (-10, -10), turned about the neck.
      const rx = -10 + ${MOUTH.x} * 660 / 640 - 320, ry = -10 + ${MOUTH.y} * 660 / 640 - 600;
      poses.push({ x: 320 + Math.cos(angle) * rx - Math.sin(angle) * ry, y: 600 + dy + Math.sin(angle) * rx + Math.cos(angle) * ry, width: ${MOUTH.width} * 660 / 640, angle });
    }
    // The mouths: the photo's own mouth, the lip line split and the jaw moved down by the shape's opening.
    const openings = { rest: 0, A: 26, E: 16, I: 9, O: 22, U: 12, M: 0, F: 6, L: 12, S: 5 };
    const narrow = { O: 0.78, U: 0.7 };
    const names = Object.keys(openings);
    const [cw, ch] = [180, 130];
    const [sheet, m] = canvas(cw * 5, ch * 2);
    names.forEach((v, n) => {
      const [cx, cy] = [(n % 5) * cw, Math.floor(n / 5) * ch];
      const [patch, p] = canvas(cw, ch);
      const open = openings[v], squeeze = narrow[v] ?? 1;
      const [x0, y0] = [${MOUTH.x} - cw / 2, ${MOUTH.y} - ch / 2];
      const lip = ch / 2; // the line between the lips, in the patch
      p.save(); p.translate(cw / 2, 0); p.scale(squeeze, 1); p.translate(-cw / 2, 0);
      p.drawImage(face, x0, y0, cw, lip, 0, 0, cw, lip);                    // upper lip and above, unmoved
      p.drawImage(face, x0, y0 + lip, cw, ch - lip, 0, lip + open, cw, ch - lip - open); // lower lip and jaw, dropped
      if (open > 0) {
        const inside = p.createLinearGradient(0, lip, 0, lip + open);
        inside.addColorStop(0, '#5a2424'); inside.addColorStop(1, '#230a0a');
        p.fillStyle = inside;
        p.beginPath(); p.ellipse(cw / 2, lip + open / 2, 34, open / 2 + 1, 0, 0, 2 * Math.PI); p.fill();
        p.fillStyle = 'rgba(235,228,215,0.85)'; // the upper teeth
        p.beginPath(); p.ellipse(cw / 2, lip, 24, Math.min(4, open / 4), 0, 0, Math.PI); p.fill();
      }
      if (v === 'M') { p.fillStyle = 'rgba(120,50,50,0.5)'; p.fillRect(cw / 2 - 42, lip - 3, 84, 6); }
      p.restore();
      // Feathered: opaque in the middle, clear at the patch's edge.
      p.globalCompositeOperation = 'destination-in';
      // An ellipse the patch's shape: drawn as a circle in a space squeezed to the patch's height.
      p.save(); p.scale(1, ch / cw);
      const g = p.createRadialGradient(cw / 2, cw / 2, 0, cw / 2, cw / 2, cw / 2);
      g.addColorStop(0, 'rgba(0,0,0,1)'); g.addColorStop(0.55, 'rgba(0,0,0,1)'); g.addColorStop(1, 'rgba(0,0,0,0)');
      p.fillStyle = g;
      p.fillRect(0, 0, cw, cw);
      p.restore();
      m.drawImage(patch, cx, cy);
    });
    const rig = {
      version: 1, width: 640, height: 640, fps: 12,
      idle: { url: 'idle.jpg', cellWidth: 640, cellHeight: 640, columns, count: frames },
      poses,
      mouths: { sheet: { url: 'mouths.png', cellWidth: cw, cellHeight: ch, columns: 5, count: names.length }, mouthWidth: ${MOUTH.width} },
      visemes: Object.fromEntries(names.map((v, n) => [v, { cell: n, source: 'warp' }])),
    };
    return { rig: JSON.stringify(rig), idle: idle.toDataURL('image/jpeg', 0.85).split(',')[1], mouths: sheet.toDataURL('image/png').split(',')[1] };
  })()`);
  return new Map([
    ['rig.json', { body: Buffer.from(files.rig), type: 'application/json' }],
    ['idle.jpg', { body: Buffer.from(files.idle, 'base64'), type: 'image/jpeg' }],
    ['mouths.png', { body: Buffer.from(files.mouths, 'base64'), type: 'image/png' }],
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
  const files = await makeRig(await browser.newPage());
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
    await page.waitForTimeout(900);
    await page.screenshot({ path: `docs/face-trained-${width}.png` });
    console.log(`docs/face-trained-${width}.png`);
    await context.close();
  }
} finally {
  await browser.close();
  demo.kill('SIGTERM');
}
