// Smoke test of the built Storybook (`npm run build-storybook` → storybook-static/): every story in
// index.json renders in Chromium without console errors, page errors, Storybook's error screen, or any
// request leaving the local server (the stand-in session needs no service and no network).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/browser.js';

const root = join(process.cwd(), 'storybook-static');
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};
// Stories that embed a third-party page (the Calendly scheduling card) get a local stand-in for it.
const thirdPartyStandIns = [/^https:\/\/calendly\.com\//];

let server: Server;
let base = '';
let browser: Browser;

before(async () => {
  server = createServer(async (req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(root)) return void res.writeHead(403).end();
    try {
      const file = path.endsWith('/') ? join(path, 'index.html') : path;
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

interface IndexEntry {
  id: string;
  type: 'story' | 'docs';
  title: string;
  name: string;
}

test('every story of the built Storybook renders without errors', { timeout: 600_000 }, async () => {
  const index = JSON.parse(await readFile(join(root, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> };
  const stories = Object.values(index.entries).filter((entry) => entry.type === 'story');
  assert.ok(stories.length >= 80, `expected the full set of stories, found ${stories.length}`);
  for (const tag of ['pal-widget', 'pal-embed', 'pal-landing', 'pal-conversation', 'pal-transcript', 'pal-disclosure', 'pal-canvas'])
    assert.ok(
      stories.some((s) => s.title.endsWith(tag)),
      `no stories for ${tag}`,
    );

  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const failures: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    if (thirdPartyStandIns.some((pattern) => pattern.test(url)))
      return route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><title>stand-in</title><p>Scheduling page stand-in</p>',
      });
    failures.push(`${route.request().frame().url()}: request left the local server: ${url}`);
    return route.abort();
  });
  // Pages take turns through the list. A story mostly waits (for its scripted steps to play, 800 ms, see
  // below), so four pages at once hold each story for the same time and take the list in a quarter of it:
  // 85 stories, 51 s in the last CI with two pages.
  const PAGES = 4;
  const queue = [...stories];
  const worker = async (): Promise<void> => {
    const page = await context.newPage();
    let current = '';
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`${current}: console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => failures.push(`${current}: page error: ${error.message}`));
    for (let story = queue.shift(); story; story = queue.shift()) {
      current = story.id;
      await page.goto(`${base}/iframe.html?id=${encodeURIComponent(story.id)}&viewMode=story`, { waitUntil: 'load' });
      try {
        await page.waitForFunction(
          () => {
            const rootEl = document.querySelector('#storybook-root');
            return document.body.classList.contains('sb-show-errordisplay') || (rootEl !== null && rootEl.childElementCount > 0);
          },
          undefined,
          { timeout: 15_000 },
        );
      } catch {
        failures.push(`${story.id}: nothing rendered`);
        continue;
      }
      if (await page.evaluate(() => document.body.classList.contains('sb-show-errordisplay')))
        failures.push(
          `${story.id}: Storybook error: ${await page
            .locator('#error-message')
            .innerText()
            .catch(() => '?')}`,
        );
      // Scripted stories play their steps (start, gate, call, card) within a moment.
      await page.waitForTimeout(800);
      const rendered = await page.evaluate(
        () => document.querySelector('#storybook-root')?.querySelector('*')?.tagName.toLowerCase() ?? '',
      );
      if (!rendered) failures.push(`${story.id}: empty root`);
    }
    await page.close();
  };
  await Promise.all(Array.from({ length: PAGES }, worker));
  await context.close();
  assert.deepEqual(failures, []);
});
