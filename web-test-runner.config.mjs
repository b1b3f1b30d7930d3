// Browser tests in three engines: Debian's Chromium through playwright-core, Firefox ESR through
// puppeteer-core over WebDriver BiDi, WebKitGTK's MiniBrowser through WebKitWebDriver under Xvfb (see
// test/helpers/engines.mjs). PALKIT_BROWSERS=chromium,firefox,webkit picks some (default: all three);
// `npm run test:browser` runs one engine after another. TypeScript source served through esbuild
// (decorators as in tsconfig), so tests import src/ directly, never dist/. Tests an engine cannot pass yet
// because of a product defect are listed, with the reason, in test/known-engine-gaps.json and skipped there
// (test/browser/helpers/engine-gaps.mjs).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { CHROMIUM_PATH, chromiumArgs, freePort, selectedEngines } from './test/helpers/engines.mjs';
import { FirefoxLauncher, WebKitLauncher } from './test/browser/helpers/launchers.mjs';
import { bundledDeps } from './test/browser/helpers/bundled-deps.mjs';
import { bundledTests } from './test/browser/helpers/bundled-tests.mjs';
import { engineGaps } from './test/browser/helpers/engine-gaps.mjs';

/**
 * One context for every file's page, so the browser's caches carry from file to file (the product keeps
 * nothing but sessionStorage, which is the tab's own); closing a file's "context" closes its page only.
 * Chromium's share of the suite: 132-143 s with a context per file, 76-82 s so (load 15-19).
 */
function sharedContext(options) {
  let shared;
  return async ({ browser }) => {
    shared ??= browser.newContext(options);
    const context = await shared;
    let page;
    return {
      newPage: async () => (page = await context.newPage()),
      close: async () => page?.close(),
    };
  };
}

// Media may start without a user gesture in every engine here, as the unit tests start it directly (the
// end-to-end walks keep each engine's gesture rules and click for real).
// The elements' entrance animations (banner, card, popup) are off, as for a visitor who asks for reduced
// motion: accessibility checks then measure the settled colours, never a frame mid-fade.
const launchers = {
  chromium: () =>
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs },
      createBrowserContext: sharedContext({ reducedMotion: 'reduce' }),
    }),
  firefox: () => new FirefoxLauncher({ reducedMotion: true }),
  webkit: () => new WebKitLauncher({ reducedMotion: true, gesture: false }),
};

const watch = process.argv.includes('--watch');

export default {
  files: ['test/browser/**/*.test.ts'],
  // A free port: web-test-runner's fixed 8000 made a second run on the machine (another engine, a second
  // checkout) fail with EADDRINUSE.
  port: Number(process.env.PALKIT_WTR_PORT) || (await freePort()),
  nodeResolve: { exportConditions: ['browser', 'development'] },
  // Test files built together (bundled-tests.mjs); in watch mode served module by module, so that a change
  // re-runs the files that import it.
  plugins: watch
    ? [engineGaps(), bundledDeps(), esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })]
    : [bundledTests(), engineGaps()],
  browsers: selectedEngines().map((engine) => launchers[engine]()),
  concurrency: 2,
  // The gate's budget per test (issue 33), as the model component libraries use: tests wait for states and
  // events (helpers/wait-for.ts), not for times, so a test that needs longer is waiting for something that broke.
  testFramework: { config: { timeout: 5000 } },
  // A test file's whole time, the one bound left when a page's main thread freezes (its tests' own timeouts
  // then never fire): WebKit's rig-jaw page froze once under load and held its engine's run the 300 s this
  // was. The longest file, a11y/screens, took 38-41 s at a load of 16-25 on two cores.
  testsFinishTimeout: 120000,
  // A test page may take several tries to open: WebKit's launcher starts MiniBrowser up to three times when it
  // fails to come up under load (seen: 30 s, the default, ran out).
  browserStartTimeout: 120000,
};
