// The Daily runner's process (started and ended by pages.ts): one headless Chromium with one page, opened
// at the service's own origin (so the PAL's room, its face's rig and the microphone worklet are
// same-origin), running the elements' runner script (src/palkit/client/runner/page.ts). It says it is
// alive every RUNNER_ALIVE_MS while the page answers, relays the page's reports, and exits when the page
// ends, crashes or stops answering, or when the service goes.
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { systemClock } from '../../platform/time.js';
import { runnerPageScript } from './page-script.js';
import { RUNNER_ALIVE_MS, type RunnerReport, type RunnerStart } from './page-messages.js';

/** The page's path on the service's origin: answered by this process (page.route), never by the service. */
export const RUNNER_PAGE_PATH = '/__palkit/daily-runner';
/** How long the page may take to answer the liveness check before the process gives up on it. */
const PAGE_ANSWER_MS = RUNNER_ALIVE_MS * 2;

export interface RunnerOptions {
  /** A script run in the page before the runner's (the real-time test gives it a recording call object). */
  initScript?: string;
  /** Called with the page before it opens (a real-time test's stand-in reads its measurements from the page). */
  onPage?: (page: Page, start: RunnerStart) => Promise<void>;
}

const report = (message: RunnerReport) => process.send?.(message);

export async function runRunner(start: RunnerStart, options: RunnerOptions = {}): Promise<void> {
  const fail = (message: string): never => {
    report({ type: 'failed', message });
    process.exit(1);
  };
  const script = await runnerPageScript().catch((error: unknown) => fail(`the runner page could not be built: ${String(error)}`));
  const playwright = await import('playwright-core').catch(() => fail('playwright-core is not installed'));
  const browser = await playwright.chromium
    .launch({
      executablePath: start.chromium,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // The PAL's voice plays with no visitor gesture in this page.
        '--autoplay-policy=no-user-gesture-required',
        // The page is answered by this process (page.route), so Chromium cannot tell it comes from the
        // service's own address: its local-network checks would refuse the PAL room on a private address.
        '--disable-features=LocalNetworkAccessChecks',
      ],
    })
    .catch((error: unknown) => fail(`Chromium could not start (${start.chromium}): ${String(error)}`));
  const page = await browser.newPage();
  page.on('crash', () => fail('the runner page crashed'));
  page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
  // The page's warnings and errors go to the process's stderr, which the service logs when the runner ends.
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') process.stderr.write(`page ${message.type()}: ${message.text()}\n`);
  });
  await page.exposeFunction('palkitReport', (r: { type: string; tracks?: Array<'audio' | 'video'>; reason?: string; failed?: boolean }) => {
    if (r.type === 'joined') report({ type: 'joined' });
    else if (r.type === 'published') report({ type: 'published', tracks: r.tracks ?? [] });
    else if (r.type === 'ended') {
      if (r.failed) report({ type: 'failed', message: r.reason ?? 'ended' });
      void browser.close().finally(() => process.exit(r.failed ? 1 : 0));
    }
  });
  const url = new URL(RUNNER_PAGE_PATH, start.serviceUrl).href;
  await page.route(url, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>palkit runner</title>' }),
  );
  if (options.initScript) await page.addInitScript(options.initScript);
  await options.onPage?.(page, start);
  await page.goto(url);
  await page.addScriptTag({ content: script });
  // Alive while the page answers: a page whose main thread hangs stops the reports, and pages.ts ends it.
  // The process's own wall clock: it has no service deps, and a stall is real time.
  const beat = systemClock.setInterval(() => {
    void Promise.race([
      page.evaluate(() => true),
      new Promise((_, reject) => systemClock.setTimeout(() => reject(new Error('no answer')), PAGE_ANSWER_MS).unref()),
    ]).then(
      () => report({ type: 'alive' }),
      () => undefined,
    );
  }, RUNNER_ALIVE_MS);
  beat.unref();
  report({ type: 'alive' });
  const { bridgeUrl, bridgeToken, dailyUrl, dailyToken, palName } = start;
  await page
    .evaluate((s) => window.palkitRunner!.start(s), { bridgeUrl, bridgeToken, dailyUrl, dailyToken, palName })
    .catch((error: unknown) => fail(`the runner could not join the Daily room: ${error instanceof Error ? error.message : String(error)}`));
}

/** Started by pages.ts: waits for its one start, and leaves with the service. */
export function main(options: RunnerOptions = {}): void {
  process.once('message', (start: RunnerStart) => void runRunner(start, options));
  process.on('disconnect', () => process.exit(0));
}

// Run as the runner (forked with this file as its entry), not when a test's stand-in imports main().
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
