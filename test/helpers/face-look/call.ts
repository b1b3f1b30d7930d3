// One call looked at (issue 51, point 7): a visitor opens the PAL's widget in a browser of any engine, the
// PAL says its greeting and answers a typed question, and every frame its <video> presents is kept (a crop
// around the face, helpers/face-look/capture.ts), each marked shown in silence or not by the lip-sync
// instruments' audio levels. Used by the real-time tier's face-look files and scripts/face-look.ts.
import { createDeployment, customerPage, eventually, type World } from '../e2e-world.js';
import { AUDIBLE, lipInstruments, silentMicrophone, type MouthBox } from '../lip-sync.js';
import { DESKTOP, openBrowser, type Engine, type Size, type VisitorBrowser, type VisitorPage } from '../visitor.js';
import { cropAroundMouth, lookCapture, type Crop } from './capture.js';
import { type Rgb } from './image.js';

export interface CapturedFrame {
  at: number;
  image: Rgb;
  silent: boolean;
}

export interface LookedCall {
  frames: CapturedFrame[];
  crop: Crop;
  /** The <video>'s size. */
  video: { width: number; height: number };
  /** Screenshots of the page taken while the PAL spoke (PNG), when asked for. */
  screenshots: Buffer[];
  presented: number;
}

/** The crop's side in the capture: the face (forehead to chin) about half of it. */
export const CROP_SIZE = 224;
const QUESTION = 'Is the third one the idea you said you liked, and would you tell me why?';

/**
 * The visitor's browser for the instrument. (Chromium without its same-origin checks, to read a tainted clip
 * face, never started a call: three tries timed out waiting for the call's controls.)
 */
export function openFaceLookBrowser(engine: Engine): Promise<VisitorBrowser> {
  return openBrowser(engine);
}

/** The <video>'s pixels cannot be read back: what it shows came from another origin without CORS. */
export class TaintedFace extends Error {}

/**
 * A call to `palId` (echo pipeline: it says its greeting, then the question back) in `browser`, its frames kept
 * from the face's first until `silenceMs` after the answer. `screenshots`: that many pictures of the page,
 * a second apart, from a second into the answer.
 */
export async function lookAtCall(
  world: World,
  browser: VisitorBrowser,
  palId: string,
  box: MouthBox,
  options: { size?: Size; silenceMs?: number; screenshots?: number; label?: string } = {},
): Promise<LookedCall> {
  const id = await createDeployment(world, {
    pal_id: palId,
    channel: 'widget',
    allowed_origins: [world.siteOrigin],
    customization: { show_haircheck: false, camera_on: false },
  });
  const page: VisitorPage = await browser.newPage(options.size ?? DESKTOP);
  const frames: Array<{ at: number; b64: string }> = [];
  const take = async () => {
    for (;;) {
      const batch = await page.evaluate((n) => (window as any).__look.take(n) as Array<{ at: number; b64: string }>, 12);
      frames.push(...batch);
      if (batch.length < 12) return;
    }
  };
  try {
    await page.addInitScript(silentMicrophone + lipInstruments(box) + lookCapture(cropAroundMouth(box), CROP_SIZE));
    await page.goto(
      world.sitePage(
        `/look-${options.label ?? 'call'}-${id}`,
        customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`),
      ),
    );
    await page.click('pal-widget [part="launcher"]');
    await page.click('pal-preview [part="start"]');
    await page.waitFor('pal-controls [part="end"]', { timeout: 90_000 });
    await eventually(
      () => page.evaluate(() => (window as any).__look.crop !== null),
      (started) => started,
      "the PAL's <video> presenting frames",
      60_000,
    );
    const { crop, video } = await page.evaluate(() => ({
      crop: (window as any).__look.crop as Crop,
      video: (window as any).__look.video as { width: number; height: number },
    }));
    const tainted = await page.evaluate(
      () => new Promise<boolean>((resolve) => setTimeout(() => resolve((window as any).__look.tainted === true), 1000)),
    );
    if (tainted)
      throw new TaintedFace(
        'the PAL\'s <video> cannot be read back ("Tainted canvases may not be exported"): the face draws pixels from another origin without CORS, so no frame can be measured',
      );
    const spokenSince = (since: number, quietMs = 1000) =>
      page.evaluate(([t, q]) => (window as any).__lip.spokenSince(t, q) as boolean, [since, quietMs]);
    await eventually(
      async () => (await take(), spokenSince(0)),
      (done) => done,
      'the greeting heard to its end',
      90_000,
    );
    const asked = await page.evaluate((text) => {
      (document.querySelector('pal-widget') as unknown as { sendChat(text: string): void }).sendChat(text);
      return performance.now();
    }, QUESTION);
    const screenshots: Buffer[] = [];
    if (options.screenshots) {
      await eventually(
        () =>
          page.evaluate((t) => (window as any).__lip.levels.some((l: { at: number; peak: number }) => l.at > t && l.peak > 0.003), asked),
        (heard) => heard,
        'the answer begun',
        30_000,
      );
      for (let i = 0; i < options.screenshots; i++) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        screenshots.push(await page.screenshot());
        await take();
      }
    }
    await eventually(
      async () => (await take(), spokenSince(asked, options.silenceMs ?? 1500)),
      (done) => done,
      'the answer heard to its end',
      90_000,
    );
    await take();
    const { levels, presented } = await page.evaluate(() => ({
      levels: (window as any).__lip.levels as Array<{ at: number; peak: number }>,
      presented: ((window as any).__look.presented || (window as any).__look.shown()) as number,
    }));
    const audible = levels
      .filter((l) => l.peak > AUDIBLE)
      .map((l) => l.at)
      .sort((a, b) => a - b);
    const near = (t: number) => {
      // Binary search for the nearest audible bin.
      let lo = 0,
        hi = audible.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (audible[mid]! < t) lo = mid + 1;
        else hi = mid;
      }
      return Math.min(...[audible[lo - 1], audible[lo]].filter((a): a is number => a !== undefined).map((a) => Math.abs(a - t)));
    };
    const captured = frames
      .sort((a, b) => a.at - b.at)
      .map(({ at, b64 }) => ({
        at,
        image: { width: CROP_SIZE, height: CROP_SIZE, rgb: new Uint8Array(Buffer.from(b64, 'base64')) },
        silent: near(at) > 300,
      }));
    return { frames: captured, crop, video, screenshots, presented };
  } finally {
    await page.close().catch(() => undefined);
  }
}
