// Browser tests: real Debian Chromium through playwright-core; TypeScript source served through esbuild
// (decorators as in tsconfig), so tests import src/ directly, never dist/.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { bundledDeps } from './test/browser/helpers/bundled-deps.mjs';

const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [bundledDeps(), esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: chromiumArgs },
      // The elements' entrance animations (banner, card, popup) are off, as for a visitor who asks for
      // reduced motion: accessibility checks then measure the settled colours, never a frame mid-fade.
      createBrowserContext: ({ browser }) => browser.newContext({ reducedMotion: 'reduce' }),
    }),
  ],
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 300000,
};
