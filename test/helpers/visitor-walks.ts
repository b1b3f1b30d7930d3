// What the visitor walks in every engine share (test/realtime/e2e/visitor-walks.test.ts, the untimed walks
// from the preview to the after-call screen, and visitor-engines.test.ts, the voice walk that measures): the
// world they walk in, a page with the element's events recorded, a stand-in speech recognition, the skip of a
// known engine gap, and a screenshot of a failing walk.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { it } from 'node:test';
import { startFakeSpeechServices, type FakeSpeechServices } from './fake-speech.js';
import { startWorld, trainFace, type World } from './e2e-world.js';
import { fakeMicrophone } from './fake-microphone.js';
import type { Engine, Size, VisitorBrowser, VisitorPage } from './visitor.js';

/** What the fake recogniser hears whenever the visitor speaks. */
export const HEARD = 'Sorry to interrupt you.';

export interface WalkWorld {
  world: World;
  speech: FakeSpeechServices;
  /** A face trained from the shared clip, as a customer's would be. */
  faceId: string;
  close(): Promise<void>;
}

/** The service (with the fake recogniser, `env` on top), no Chromium of its own, and a trained face. */
export async function startWalkWorld(env: Record<string, string> = {}): Promise<WalkWorld> {
  const speech = await startFakeSpeechServices({ transcript: HEARD });
  // No Chromium of the world's: each engine's browser is opened by the file (helpers/visitor.ts).
  const world = await startWorld(
    { PALKIT_STT_BASE_URL: `${speech.url}/v1`, PALKIT_STT_API_KEY: 'sk-test', ...env },
    { chromium: false },
  ).catch(async (error: unknown) => {
    await speech.close();
    throw error;
  });
  const close = async () => {
    await world.close();
    await speech.close();
  };
  try {
    return { world, speech, faceId: await trainFace(world), close };
  } catch (error) {
    await close();
    throw error;
  }
}

const gaps: Array<{ suite: string; engine: string; file: string; test: string; reason: string }> = JSON.parse(
  readFileSync(new URL('../known-engine-gaps.json', import.meta.url), 'utf8'),
).gaps;

/** With PALKIT_VISITOR_SHOTS=<folder>, a failing walk leaves a screenshot of its page there. */
export async function shotOnFailure<T>(p: VisitorPage, name: string, walk: () => Promise<T>): Promise<T> {
  try {
    return await walk();
  } catch (error) {
    const folder = process.env.PALKIT_VISITOR_SHOTS;
    if (folder) {
      mkdirSync(folder, { recursive: true });
      await p
        .screenshot()
        .then((png) => writeFileSync(`${folder}/${p.engine}-${name.replace(/[^\w]+/g, '-').slice(0, 60)}.png`, png))
        .catch(() => undefined);
    }
    throw error;
  }
}

/** `it`, or a skip with the known gap's reason when this engine has one for this test of `file`. */
export function itIn(file: string, engine: Engine, name: string, fn: () => Promise<void>): void {
  const gap = gaps.find((g) => g.suite === 'e2e' && g.engine === engine && g.file === file && g.test === name);
  if (gap) return void it(name, { skip: `known ${engine} gap: ${gap.reason}` }, fn);
  it(name, async () => {
    try {
      await fn();
    } catch (error) {
      // WebKitWebDriver sometimes never answers a command (a few walks in twenty, often the first of a fresh
      // MiniBrowser): the command fails after 45 s and the walk runs again once, in a new MiniBrowser (every
      // page has its own). Firefox gets no second walk: its page stopped answering puppeteer when the PAL's
      // player read the output clock every 5 ms (a Firefox deadlock, see pal-audio.ts), and a page that
      // stops answering now is a defect to see, not to walk past.
      if (engine !== 'webkit' || !/aborted due to timeout/.test(String((error as Error).message))) throw error;
      console.error(
        `[${engine}] ${name}: the browser stopped answering (${String((error as Error).message).slice(0, 80)}); walking again in a fresh one`,
      );
      await fn();
    }
  });
}

// What the element tells the page, recorded from the start where the engine allows (WebKit: after load).
const recorder = `
if (!window.__pal) {
  window.__pal = { errors: [], events: [], messages: [] };
  for (const type of ['pal-conversation-started', 'pal-conversation-ended', 'pal-error', 'pal-protocol-message']) {
    window.addEventListener(type, (event) => {
      const detail = event.detail ?? {};
      if (type === 'pal-error') window.__pal.errors.push(detail.code);
      else if (type === 'pal-protocol-message') window.__pal.messages.push(JSON.parse(JSON.stringify(detail)));
      else window.__pal.events.push({ type, detail: JSON.parse(JSON.stringify(detail)) });
    });
  }
}`;

// Chromium's speech recognition needs Google's service, which a test machine cannot reach: it fails at once
// with a network error, and the element then tells the visitor the microphone is unavailable. Where the
// engine has one, a stand-in recognition that hears nothing (the microphone is quiet) takes its place.
const silentRecognition = `
if ((window.SpeechRecognition || window.webkitSpeechRecognition) && !window.__silentRecognition) {
  window.__silentRecognition = true;
  class SilentRecognition extends EventTarget {
    continuous = false; interimResults = false; lang = ''; running = false;
    start() { if (this.running) throw new DOMException('already started', 'InvalidStateError'); this.running = true; this.dispatchEvent(new Event('start')); }
    stop() { this.end(); }
    abort() { this.end(); }
    end() { if (this.running) { this.running = false; this.dispatchEvent(new Event('end')); } }
  }
  window.SpeechRecognition = SilentRecognition;
  window.webkitSpeechRecognition = SilentRecognition;
}`;

/** A page of `browser` at `size` with the recorder, the fake microphone and the silent recognition in it; kept in `pages` to be closed. */
export async function walkPage(browser: VisitorBrowser, size: Size, pages: VisitorPage[]): Promise<VisitorPage> {
  const p = await browser.newPage(size);
  pages.push(p);
  await p.addInitScript(recorder);
  await p.addInitScript(fakeMicrophone);
  await p.addInitScript(silentRecognition);
  return p;
}
