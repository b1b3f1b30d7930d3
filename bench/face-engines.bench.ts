// A trained face's drawing in each engine (issue 32): the face trained from the shared portrait, drawn as a
// visitor's page draws it (WebGL or canvas 2D, as the page picks) and with the other renderer, beside Ada, each for a few
// seconds in Chromium, Firefox and WebKit (PALKIT_BROWSERS picks some); frames drawn a second, time per
// draw and between draws, the page's animation frames a second, the delay from a draw to the <video> showing
// it, and the main thread's stalls (bench/face-engines-page.ts). WebKitGTK named its software WebGL 'Apple GPU'
// and drew the face with it at 3 fps, its frames 117-358 ms from draw to <video> (rig-gl.ts: mayBeEmulated).
// The trained face's 2D painting is also timed alone (no capture). `npm run bench -- face-engines`.
// BENCH_FACE_SECONDS (default 8).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateFfmpeg } from '../src/server/platform/media/ffmpeg.js';
import { analyseFace, makeRig } from '../src/server/resources/faces/rig/train.js';
import { portraitClip } from '../test/helpers/face-clips.js';
import { DESKTOP, openBrowser, selectedEngines } from '../test/helpers/visitor.js';
import type { EngineFigures } from './face-engines-page.js';
import { bundlePage } from './page-bundle.js';
import { descendantsCpuSeconds } from './process-cpu.js';

declare const bench: {
  rig(seconds: number, webgl: 'auto' | 'any' | 'never'): Promise<EngineFigures>;
  paint(frames: number): Promise<[number, number, number]>;
  ada(seconds: number): Promise<EngineFigures>;
};

const seconds = Number(process.env.BENCH_FACE_SECONDS ?? 8);

/** The rig's three files, trained from a 2 s clip of the portrait (as the end-to-end tests' face). */
async function trainedRig(): Promise<Map<string, { body: Uint8Array; type: string }>> {
  const ffmpeg = locateFfmpeg(undefined);
  if ('missing' in ffmpeg) throw new Error(ffmpeg.missing);
  const dir = mkdtempSync(join(tmpdir(), 'palkit-face-engines-'));
  try {
    const path = join(dir, 'clip.mp4');
    writeFileSync(path, portraitClip(2));
    const files = await makeRig(ffmpeg.path, path, await analyseFace(ffmpeg.path, path, { still: false }));
    return new Map([
      ['rig.json', { body: Buffer.from(JSON.stringify(files.rig)), type: 'application/json' }],
      [files.rig.idle.url, { body: files.idle, type: 'image/jpeg' }],
      [files.rig.mouths.sheet.url, { body: files.mouths, type: files.rig.mouths.sheet.url.endsWith('.png') ? 'image/png' : 'image/webp' }],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function line(name: string, f: EngineFigures, cpuSeconds: number): string {
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
  const frames = f.drawnFps * seconds;
  return (
    `${name}: drawn ${f.drawnFps.toFixed(1)} fps; the browser's processes ${((cpuSeconds / seconds) * 100).toFixed(0)} % of a core, ${((cpuSeconds / frames) * 1000).toFixed(1)} ms CPU a drawn frame; per draw ${ms(f.drawMs)} ms, between draws ${ms(f.gapMs)} ms (median / p90 / max); ` +
    `animation frames ${f.animationFps.toFixed(0)} a second; draw to <video> ${f.toVideoMs.join(', ') || '(never seen)'} ms; stalls over 120 ms: ${f.stallsMs.join(', ') || 'none'}; load ${loadavg()[0]!.toFixed(1)}`
  );
}

export default async function run(): Promise<void> {
  const rig = await trainedRig();
  const script = await bundlePage(new URL('./face-engines-page.ts', import.meta.url));
  const server = createServer((request, response) => {
    const file: { body: Uint8Array; type: string } | undefined =
      request.url === '/'
        ? {
            body: Buffer.from(
              '<!doctype html><html><body style="margin:0"><button id="go">go</button><script type="module" src="/page.js"></script></body></html>',
            ),
            type: 'text/html',
          }
        : request.url === '/page.js'
          ? { body: Buffer.from(script), type: 'text/javascript' }
          : request.url?.startsWith('/rig/')
            ? rig.get(request.url.slice(5))
            : undefined;
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    for (const engine of selectedEngines(process.env.PALKIT_BROWSERS)) {
      const browser = await openBrowser(engine);
      try {
        const page = await browser.newPage(DESKTOP);
        await page.goto(`http://127.0.0.1:${port}/`);
        await page.click('#go'); // a gesture, for the engines that play media only after one
        // Each drawing with the CPU the browser's processes spent on it (capture and presentation included).
        const measured = async (draw: () => Promise<EngineFigures>): Promise<[EngineFigures, number]> => {
          const before = descendantsCpuSeconds();
          const figures = await draw();
          return [figures, descendantsCpuSeconds() - before];
        };
        const [auto, autoCpu] = await measured(() => page.evaluate((s) => bench.rig(s, 'auto'), seconds));
        console.log(line(`${engine}, trained face (${auto.renderer}, as a visitor's page picks)`, auto, autoCpu));
        // The other renderer: canvas 2D, or WebGL even where it runs in software (as a visitor's page would not).
        const [other, otherCpu] = await measured(() =>
          page.evaluate(([s, webgl]) => bench.rig(s, webgl), [seconds, auto.renderer === '2d' ? 'any' : 'never'] as const),
        );
        if (other.renderer !== auto.renderer) console.log(line(`${engine}, trained face (${other.renderer})`, other, otherCpu));
        const paint = await page.evaluate((n) => bench.paint(n), 300);
        console.log(
          `${engine}, trained face painted alone on canvas 2D (mouth and lids moving): ${paint.map((ms) => ms.toFixed(1)).join(' / ')} ms a frame (median / p90 / max)`,
        );
        console.log(line(`${engine}, Ada (2d)`, ...(await measured(() => page.evaluate((s) => bench.ada(s), seconds)))));
        await page.close();
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
