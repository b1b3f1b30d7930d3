// The world of an end-to-end test: the real service as a child process on http://localhost:<port>, the
// loopback stand-ins it talks to (Cloudflare's siteverify, a face-video host, a callback receiver), a
// customer site on another origin (http://127.0.0.1:<port2>) that holds nothing but the script tag and
// an element, and Chromium with stand-ins for the third-party scripts a browser would fetch (Turnstile).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { portraitClip } from './face-clips.js';
import { startFileServer, waitUntil } from './loopback.js';
import { freePort, startServiceProcess, type ServiceProcess } from './process.js';
import { startReceiver, type Receiver } from './receiver.js';
import { waitFor } from './wait-for.js';

export const KEY = 'e2e-key-owner-1';
export const SITE_KEY = '0x4AAAAe2e-site';
export const GOOD_TOKEN = 'turnstile-pass-token';
const SECRET = 'e2e-turnstile-secret';
// A clip with a real face: training learns it (the demo's test pattern has none). Made by the first file
// that trains (ffmpeg, a second or two on a busy machine), not by every file that imports this one.
let faceVideo: Buffer | undefined;
const KEPT_RIGS = fileURLToPath(new URL('./kept-rigs-preload.ts', import.meta.url));

export interface ApiAnswer {
  status: number;
  body: any;
}

export interface World {
  /** The service process (a new one after restartService). */
  readonly service: ServiceProcess;
  /** Stops the service as an operator would (SIGTERM: it drains) and starts it again on the same port and data. */
  restartService(): Promise<void>;
  /** The service's public address, http://localhost:<port> (the origin palkit.js is served from). */
  serviceUrl: string;
  /** The customer site, http://127.0.0.1:<port2>: another origin than the service. */
  siteOrigin: string;
  receiver: Receiver;
  siteverify: { forms: URLSearchParams[] };
  browser: Browser;
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer>;
  /** Serves `html` on the customer site at `path` (with these response headers, e.g. a Content-Security-Policy). */
  sitePage(path: string, html: string, headers?: Record<string, string>): string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Cloudflare's siteverify, as the service calls it: a form post answered with `{success, error-codes}`. */
async function startSiteverify(): Promise<{ url: string; forms: URLSearchParams[]; server: Server }> {
  const forms: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      forms.push(form);
      const success = form.get('secret') === SECRET && form.get('response') === GOOD_TOKEN;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          success
            ? { success: true, 'error-codes': [], challenge_ts: new Date().toISOString(), hostname: '127.0.0.1' }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    });
  });
  return { url: `${await listen(server)}/turnstile/v0/siteverify`, forms, server };
}

export interface WorldOptions {
  /** More Chromium flags, e.g. `--use-file-for-fake-audio-capture=<wav>`. */
  chromiumArgs?: string[];
  /** false: no Chromium (a file that opens its own browsers, helpers/visitor.ts); `world.browser` then throws. */
  chromium?: boolean;
}

export async function startWorld(env: Record<string, string> = {}, options: WorldOptions = {}): Promise<World> {
  const siteverify = await startSiteverify();
  const receiver = await startReceiver();
  try {
    return await startWorldOn(siteverify, receiver, env, options);
  } catch (error) {
    // Left listening, these servers would keep the test file's process alive for good after a failed start
    // (seen: a service that did not become healthy on a busy machine hung `npm test`).
    await Promise.all([closeServer(siteverify.server), receiver.close()]);
    throw error;
  }
}

async function startWorldOn(
  siteverify: Awaited<ReturnType<typeof startSiteverify>>,
  receiver: Receiver,
  env: Record<string, string>,
  options: WorldOptions,
): Promise<World> {
  const port = await freePort();
  const serviceUrl = `http://localhost:${port}`;
  const serviceEnv = {
    PALKIT_DATA: 'memory',
    PALKIT_API_KEYS: `${KEY}:1`,
    PALKIT_PUBLIC_URL: serviceUrl,
    PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
    PALKIT_TURNSTILE_SITE_KEY: SITE_KEY,
    PALKIT_TURNSTILE_SECRET: SECRET,
    PALKIT_TURNSTILE_VERIFY_URL: siteverify.url,
    PALKIT_PAL_WORDS_PER_MINUTE: '2000',
    PALKIT_ROOM_POLL_MS: '200',
    ...env,
  };
  // Chromium starts while the service does (each takes seconds, mostly waiting on the other core).
  const launching = options.chromium === false ? Promise.resolve(null) : launchChromium(options.chromiumArgs);
  launching.catch(() => undefined); // awaited below, once the service is up (or closed if it never comes up)
  // In a tier run that keeps trained rigs, the face trainer answers a step it made before from the kept rig.
  const nodeArgs = process.env.PALKIT_TEST_RIG_CACHE ? ['--import', KEPT_RIGS] : [];
  let service: ServiceProcess;
  try {
    service = await startServiceProcess(serviceEnv, { port, nodeArgs });
  } catch (error) {
    await launching.then((b) => b?.close()).catch(() => undefined);
    throw error;
  }

  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  const site = createServer((req, res) => {
    const page = pages.get(req.url ?? '/');
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...page.headers }).end(page.html);
  });
  const siteOrigin = await listen(site);
  const launched = await launching.catch(async (error: unknown) => {
    await Promise.all([service.stop(), closeServer(site)]);
    throw error;
  });

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> => {
    const response = await fetch(service.url + path, {
      method,
      // An empty header value drops the header (a public call sends no key).
      headers: Object.fromEntries(
        Object.entries({ 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }).filter(
          ([, v]) => v !== '',
        ),
      ),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed };
  };

  return {
    get service() {
      return service;
    },
    async restartService() {
      await service.stop();
      service = await startServiceProcess(serviceEnv, { port, nodeArgs });
    },
    get browser(): Browser {
      if (!launched) throw new Error('this world has no Chromium (startWorld with chromium: false)');
      return launched;
    },
    serviceUrl,
    siteOrigin,
    receiver,
    siteverify,
    api,
    sitePage(path, html, headers = {}) {
      pages.set(path, { html, headers });
      return siteOrigin + path;
    },
    async close() {
      await launched?.close().catch(() => undefined);
      await service.stop();
      await Promise.all([closeServer(site), closeServer(siteverify.server), receiver.close()]);
    },
  };
}

/** A customer page: nothing but the script tag and one element. */
export function customerPage(serviceUrl: string, element: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Customer site</title></head>
<body><script src="${serviceUrl}/palkit.js"></script>
${element}
</body></html>`;
}

/** A trained face created through the API from the sample video on a loopback host. */
export async function trainFace(world: World, name = 'E2E face'): Promise<string> {
  faceVideo ??= portraitClip(2);
  const files = await startFileServer({ '/face.mp4': { body: faceVideo, contentType: 'video/mp4' } });
  try {
    const created = await world.api('POST', '/v2/faces', { face_name: name, train_video_url: `${files.url}/face.mp4` });
    if (created.status !== 200) throw new Error(`face: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.face_id as string;
    let face: any;
    await waitUntil(
      async () => {
        face = (await world.api('GET', `/v2/faces/${id}`)).body;
        return face.status !== 'training';
      },
      60_000,
      `training of face ${id}`,
    );
    if (face.status !== 'completed') throw new Error(`face ${id} ended ${face.status}: ${face.error_message}`);
    return id;
  } finally {
    await files.close();
  }
}

export async function createPal(world: World, body: Record<string, unknown>): Promise<string> {
  const r = await world.api('POST', '/v2/pals', { pipeline_mode: 'echo', ...body });
  if (r.status !== 200) throw new Error(`pal: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.pal_id as string;
}

/** A deployment in `status` (default active). */
export async function createDeployment(
  world: World,
  body: Record<string, unknown>,
  status: 'active' | 'inactive' | 'draft' = 'active',
): Promise<string> {
  const r = await world.api('POST', '/v2/deployments', body);
  if (r.status !== 200) throw new Error(`deployment: ${r.status} ${JSON.stringify(r.body)}`);
  const id = r.body.deployment_id as string;
  if (status !== 'draft') {
    const patched = await world.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: status }]);
    if (patched.status !== 200) throw new Error(`deployment status: ${patched.status} ${JSON.stringify(patched.body)}`);
  }
  return id;
}

// Turnstile in the page: the element loads Cloudflare's api.js; this stand-in renders a check box that,
// when ticked, hands the widget's callback a token (the real one does the same after its challenge). A
// test can make it hand over a forged token with `window.__turnstileToken`.
const turnstileStandIn = `
window.turnstile = {
  render(container, options) {
    const box = document.createElement('label');
    box.className = 'turnstile-standin';
    const check = document.createElement('input');
    check.type = 'checkbox';
    check.addEventListener('change', () => options.callback(window.__turnstileToken ?? ${JSON.stringify(GOOD_TOKEN)}));
    box.append(check, document.createTextNode(' Verify you are human (' + options.sitekey + ')'));
    container.append(box);
    return 'standin-1';
  },
  remove() {},
  reset() {},
};`;

/** Records what the element tells the page (`pal-*` events) in `window.__pal`, before any page script runs. */
const recorder = `
window.__pal = { errors: [], events: [], messages: [], interactions: [] };
for (const type of ['pal-ready', 'pal-conversation-started', 'pal-conversation-ended', 'pal-mode-change', 'pal-state-change', 'pal-error', 'pal-protocol-message', 'pal-canvas-interaction', 'pal-turn-latency']) {
  window.addEventListener(type, (event) => {
    const detail = event.detail ?? {};
    if (type === 'pal-error') window.__pal.errors.push(detail.code);
    else if (type === 'pal-protocol-message') window.__pal.messages.push(JSON.parse(JSON.stringify(detail)));
    else if (type === 'pal-canvas-interaction') window.__pal.interactions.push(JSON.parse(JSON.stringify(detail)));
    else window.__pal.events.push({ type, detail: JSON.parse(JSON.stringify(detail)) });
  });
}`;

/** A page with the Turnstile stand-in routed in place of Cloudflare's script and the event recorder. */
export async function openPage(world: World): Promise<Page> {
  const context = await world.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route('https://challenges.cloudflare.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: turnstileStandIn }),
  );
  await context.addInitScript(recorder);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  return page;
}

export async function palErrors(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __pal: { errors: string[] } }).__pal.errors);
}

export async function palEvents(page: Page): Promise<Array<{ type: string; detail: any }>> {
  return page.evaluate(() => (window as unknown as { __pal: { events: Array<{ type: string; detail: any }> } }).__pal.events);
}

/** Polls `read` in node until `check` accepts its value. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  let value!: T;
  await waitFor(async () => check((value = await read())), {
    timeout: timeoutMs,
    interval: 50,
    what: () => `${what}; last value: ${JSON.stringify(value)}`,
  });
  return value;
}
