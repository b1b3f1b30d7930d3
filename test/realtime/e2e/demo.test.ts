// `npm start`'s demo, as a newcomer sees it: the demo process (demo/start.ts, bundled as npm start runs it) on a fresh data directory
// seeds through the API, serves every demo page, and a second start keeps the first one's data. It listens on
// loopback only, and its backend routes answer only with this run's demo key (from the printed links).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/browser.js';
import { eventually } from '../../helpers/e2e-world.js';
import { freePort } from '../../helpers/process.js';
import { demoKeyOf, startDemo, type Demo } from '../../helpers/demo-process.js';

/** The local addresses with a socket listening on `port` (IPv4 and IPv6), from /proc/net. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local?.endsWith(`:${hexPort}`)) continue; // 0A: LISTEN
      const hex = local.split(':')[0]!;
      if (hex.length === 8)
        found.add(
          hex
            .match(/../g)!
            .reverse()
            .map((b) => parseInt(b, 16))
            .join('.'),
        );
      else found.add(hex === '0'.repeat(32) ? '::' : hex === '00000000000000000000000001000000' ? '::1' : hex);
    }
  }
  return [...found].sort();
}

async function deploymentsOf(demo: Demo): Promise<Record<string, string>> {
  const text = await (await fetch(`${demo.url}/demo/config.js`)).text();
  return JSON.parse(text.replace(/^window\.PALKIT_DEMO = /, '').replace(/;\s*$/, '')).deployments;
}

/** Waits until the PAL's tile is in the call (the local room said the PAL joined). */
async function expectJoined(page: Page): Promise<void> {
  await page.locator('pal-conversation pal-stage [part="pal"]').first().waitFor({ state: 'attached', timeout: 30_000 });
}

describe('npm start demo', () => {
  let dataDir: string;
  let port: number;
  let demo: Demo;
  let browser: Browser;
  let deployments: Record<string, string>;
  const errors: string[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'palkit-demo-'));
    port = await freePort();
    demo = await startDemo(dataDir, port, { PALKIT_PAL_WORDS_PER_MINUTE: '1200' });
    deployments = await deploymentsOf(demo);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await demo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    // A failed load (a missing script, style, icon or media file) shows as a console error.
    page.on('console', (m) => void (m.type() === 'error' && errors.push(`${path}: ${m.text()} ${m.location().url}`)));
    await page.goto(demo.url + path);
    return page;
  }

  it('prints the demo key and seeds four deployments through the API', async () => {
    assert.match(demo.output(), /Demo API key\s+pk_demo_/);
    assert.deepEqual(Object.keys(deployments).sort(), ['captcha', 'embed', 'landing', 'widget']);
    const key = /Demo API key\s+(\S+)/.exec(demo.output())![1]!;
    const list = await (await fetch(`${demo.url}/v2/deployments`, { headers: { 'x-api-key': key } })).json();
    assert.equal(list.data.filter((d: { status: string }) => d.status === 'active').length, 4);
    // The full PAL's knowledge document (served by the demo site) is ingested.
    const deadline = Date.now() + 30_000;
    let documents: { data: Array<{ status: string; document_name: string }> };
    do {
      documents = await (await fetch(`${demo.url}/v2/documents`, { headers: { 'x-api-key': key } })).json();
      if (documents.data[0]?.status === 'ready' || documents.data[0]?.status === 'error') break;
      await new Promise((r) => setTimeout(r, 250));
    } while (Date.now() < deadline);
    assert.equal(documents.data[0]?.status, 'ready', JSON.stringify(documents.data[0]));
    // The demo PALs use the built-in drawn face Ada, not a test card: its still image is served by the demo.
    const face = await (await fetch(`${demo.url}/v2/replicas/rpalkitada?verbose=true`, { headers: { 'x-api-key': key } })).json();
    assert.deepEqual([face.status, face.replica_type], ['completed', 'system']);
    assert.equal(face.thumbnail_image_url, `${demo.url}/faces/palkit-ada.svg`);
    const pal = await (
      await fetch(`${demo.url}/v2/pals/${(list.data as Array<{ pal_id: string }>)[0]!.pal_id}`, { headers: { 'x-api-key': key } })
    ).json();
    assert.equal(pal.default_face_id, 'rpalkitada');
    assert.equal((await fetch(face.thumbnail_image_url)).headers.get('content-type'), 'image/svg+xml');
  });

  it('listens on loopback only, and its backend routes need the printed key', async () => {
    // Read from the kernel's socket table rather than by connecting to another address of the machine.
    assert.deepEqual(listeningAddresses(port), ['127.0.0.1'], 'listens on loopback only');
    assert.equal((await fetch(`${demo.url}/demo/api/callbacks`)).status, 403);
    assert.match(demo.output(), new RegExp(`/demo/operator\\.html\\?demo_key=${demoKeyOf(demo)}`));
  });

  it('serves the index (the root URL opens it) and the operator console', async () => {
    const root = await open('/');
    assert.equal(new URL(root.url()).pathname, '/demo/');
    const page = await open('/demo/');
    assert.match(await page.title(), /palkit demo/);
    assert.match((await page.getAttribute('#landing-link', 'href')) ?? '', new RegExp(`/d/${deployments.landing}$`));
    const operator = await open(`/demo/operator.html?demo_key=${demoKeyOf(demo)}`);
    await operator.locator('#cards button').first().waitFor();
    assert.ok((await operator.locator('#cards button').count()) >= 8);
  });

  it('the widget page (script tag only) opens the preview and joins a call', async () => {
    const page = await open('/demo/widget.html');
    await page.locator('pal-widget [part="launcher"]').click();
    const start = page.locator('pal-widget pal-preview [part="start"]');
    await start.waitFor();
    await start.click();
    const join = page.locator('pal-widget pal-haircheck [part="join"]');
    await join.click({ timeout: 15_000 });
    await expectJoined(page);
  });

  it('on a phone the widget page fits the screen and its launcher opens the full-screen sheet', async () => {
    const page = await open('/demo/widget.html');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing overflows sideways');
    const launcher = page.locator('pal-widget [part="launcher"]');
    const box = (await launcher.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, `launcher on screen: ${JSON.stringify(box)}`);
    await launcher.click();
    // The sheet slides in; measure it once it has settled.
    const panel = (await eventually(
      () => page.locator('pal-widget dialog[part="panel"]').boundingBox(),
      (box) => box?.y === 0,
      'the sheet to settle',
      2000,
    ))!;
    assert.deepEqual([panel.x, panel.y, panel.width, panel.height].map(Math.round), [0, 0, 390, 844]);
  });

  it('the product page and the captcha page reach the embed preview', async () => {
    for (const path of ['/demo/product.html', '/demo/captcha.html']) {
      const page = await open(path);
      await page.locator('pal-embed pal-preview [part="start"]').waitFor({ timeout: 15_000 });
    }
  });

  it('the React and Vue pages (npm package) reach the embed preview and log pal-ready', async () => {
    for (const path of ['/demo/react/', '/demo/vue/']) {
      const page = await open(path);
      await page.setViewportSize({ width: 320, height: 568 });
      await page.locator('pal-embed pal-preview [part="start"]').waitFor({ timeout: 15_000 });
      await page.locator('#events', { hasText: 'pal-ready' }).waitFor({ timeout: 15_000 });
      // The logged events' JSON has no spaces: it wraps rather than widen a 320 px page.
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 320, `${path}: nothing overflows sideways`);
    }
  });

  it("the Vue page's launcher keeps out of the embed's column at every width", async () => {
    const page = await open('/demo/vue/');
    for (const [width, height] of [
      [320, 568],
      [390, 700],
      [768, 1024],
      [1024, 768],
      [1366, 860],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.locator('pal-embed pal-preview [part="start"]').waitFor({ timeout: 15_000 });
      // The launcher is fixed to the window and the embed scrolls under it: they must not share a column.
      const [launcher, embed] = await page.evaluate(() =>
        [document.querySelector('pal-widget')!.shadowRoot!.querySelector('[part="launcher"]')!, document.querySelector('pal-embed')!].map(
          (e) => {
            const box = e.getBoundingClientRect();
            return { left: box.left, right: box.right };
          },
        ),
      );
      assert.ok(
        launcher!.left >= embed!.right,
        `${width} px: launcher ${JSON.stringify(launcher)} clear of the embed ${JSON.stringify(embed)}`,
      );
    }
  });

  it('the landing page asks for the password and joins a call', async () => {
    const page = await open(`/d/${deployments.landing}`);
    await page.locator('pal-landing pal-preview [part="start"]').click({ timeout: 15_000 });
    await page.locator('pal-landing pal-gate input[name="password"]').fill('palkit');
    await page.locator('pal-landing pal-gate button[type="submit"]').click();
    await page.locator('pal-landing pal-haircheck [part="join"]').click({ timeout: 15_000 });
    await expectJoined(page);
  });

  it('the own-surface page joins a conversation created by its backend, the call whole in view', async () => {
    // A phone (the call would open below the fold) and a laptop (its controls cut at the bottom edge).
    for (const [width, height] of [
      [390, 700],
      [1366, 860],
    ] as const) {
      const page = await open(`/demo/custom.html?demo_key=${demoKeyOf(demo)}`);
      await page.setViewportSize({ width, height });
      await page.locator('#start').click();
      await expectJoined(page);
      const box = await eventually(
        () =>
          page.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('pal-conversation')!.getBoundingClientRect())) as DOMRect),
        // Within a pixel: scroll positions are whole pixels, layout is not.
        (b) => b.top >= -1 && b.bottom <= height + 1,
        `the call in view at ${width}×${height}`,
        3000,
      );
      assert.ok(box.height > height / 2, `the call is the size of its frame: ${JSON.stringify(box)}`);
      await page.close();
    }
  });

  it("the operator console's receiver got signed callbacks from the demo calls", async () => {
    const { data } = await (await fetch(`${demo.url}/demo/api/callbacks`, { headers: { 'x-demo-key': demoKeyOf(demo) } })).json();
    const joined = data.filter((c: { body: { event_type?: string } }) => c.body.event_type === 'system.pal_joined');
    assert.ok(joined.length >= 2, `pal_joined callbacks: ${joined.length}`);
    assert.ok(data.every((c: { verified: boolean }) => c.verified));
  });

  it('raised no page errors and loaded every resource', () => {
    assert.deepEqual(errors, []);
  });

  it('keeps the seeded data on a second start', async () => {
    await demo.stop();
    demo = await startDemo(dataDir, port, { PALKIT_PAL_WORDS_PER_MINUTE: '1200' });
    assert.deepEqual(await deploymentsOf(demo), deployments);
  });
});
