// Render cost of a trained face in real Chromium (issue 32): a 640×640 rig face drawn from its rig while the
// mouth changes every 80 ms, beside Ada, each for a few seconds; frames per second drawn and shown by the
// <video>, and main-thread time per frame. Goal: ≥ 25 fps using ≤ 25 % of one core.
// `npm run bench -- face-render`; alone: `npx tsx bench/face-render.bench.ts`. BENCH_FACE_SECONDS (default 6).
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FaceFigures } from './face-render-page.js';
import { bundlePage } from './page-bundle.js';

declare const bench: {
  prepare(): Promise<void>;
  prepareMesh(json: string, idle: string, mouths: string): Promise<void>;
  rig(seconds: number, webgl?: 'auto' | 'any' | 'never'): Promise<FaceFigures & { renderer: string }>;
  ada(seconds: number): Promise<FaceFigures>;
};

const seconds = Number(process.env.BENCH_FACE_SECONDS ?? 6);

/** `busy`: seconds the page's main thread ran tasks meanwhile (Chromium's TaskDuration), all of them, not only the drawing's. */
function line(name: string, f: FaceFigures, busy: number): string {
  const frames = f.drawnFps * f.seconds;
  return `${name}: drawn ${f.drawnFps.toFixed(1)} fps, shown by the <video> ${f.shownFps.toFixed(1)} fps; drawing per frame median ${f.medianMs.toFixed(2)} ms, p95 ${f.p95Ms.toFixed(2)} ms; main thread busy ${((busy * 1000) / frames).toFixed(2)} ms per frame, ${((busy / f.seconds) * 100).toFixed(1)} % of one core`;
}

export default async function run(): Promise<void> {
  const script = await bundlePage(new URL('./face-render-page.ts', import.meta.url));
  const browser = await chromium.launch({
    executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    // No GPU here: compositing and WebGL (SwiftShader) are in software, a visitor's device does better.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
    page.on('pageerror', (e) => console.error('page error:', e));
    await page.setContent('<!doctype html><html><body style="margin:0"></body></html>');
    await page.addScriptTag({ content: script, type: 'module' });
    await page.waitForFunction(() => 'bench' in window);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
    const timed = async <F extends FaceFigures>(run: () => Promise<F>) => {
      const before = await taskSeconds();
      const figures = await run();
      return { figures, busy: (await taskSeconds()) - before };
    };
    await page.evaluate(() => bench.prepare());
    const auto = await timed(() => page.evaluate((s) => bench.rig(s, 'auto'), seconds));
    await page.evaluate(() => bench.prepare()); // a stopped face closed its images
    const gl = await timed(() => page.evaluate((s) => bench.rig(s, 'any'), seconds));
    await page.evaluate(() => bench.prepare()); // a stopped face closed its images
    const flat = await timed(() => page.evaluate((s) => bench.rig(s, 'never'), seconds));
    // A version-2 rig (a mesh over the portrait, its head moving on every frame: the most a frame draws).
    const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../test/fixtures/rig-v2/${name}`, import.meta.url)));
    const mesh = [
      fixture('rig.json').toString(),
      fixture('idle.jpg').toString('base64'),
      fixture('mouths.webp').toString('base64'),
    ] as const;
    const prepareMesh = () => page.evaluate(([j, i, m]) => bench.prepareMesh(j, i, m), mesh);
    await prepareMesh();
    const meshGl = await timed(() => page.evaluate((s) => bench.rig(s, 'any'), seconds));
    await prepareMesh();
    const meshFlat = await timed(() => page.evaluate((s) => bench.rig(s, 'never'), seconds));
    const ada = await timed(() => page.evaluate((s) => bench.ada(s), seconds));
    console.log(line(`trained face (rig, as a visitor gets it: ${auto.figures.renderer}) 640×640`, auto.figures, auto.busy));
    console.log(
      line(
        `trained face (rig, ${gl.figures.renderer === 'webgl' ? 'WebGL, here in software: SwiftShader' : 'canvas 2D: this Chromium gave no WebGL'}) 640×640`,
        gl.figures,
        gl.busy,
      ),
    );
    console.log(line('trained face (rig, canvas 2D) 640×640', flat.figures, flat.busy));
    console.log(
      line(
        `mesh face (rig v2, ${meshGl.figures.renderer === 'webgl' ? 'WebGL, here in software: SwiftShader' : 'canvas 2D: no WebGL'}) 512×512`,
        meshGl.figures,
        meshGl.busy,
      ),
    );
    console.log(line('mesh face (rig v2, canvas 2D) 512×512', meshFlat.figures, meshFlat.busy));
    console.log(line('Ada (drawn, canvas 2D) 960×540', ada.figures, ada.busy));
    for (const [name, r] of [
      ['as a visitor gets it', auto],
      ['software WebGL', gl],
      ['canvas 2D', flat],
      ['mesh, software WebGL', meshGl],
      ['mesh, canvas 2D', meshFlat],
    ] as const) {
      const ok = r.figures.drawnFps >= 25 * 0.95 && r.busy / r.figures.seconds <= 0.25;
      console.log(`${name}: goal ≥ 25 fps using ≤ 25 % of one core: ${ok ? 'met' : 'NOT met'}`);
    }
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
