// What a visitor's browser loads, measured in Chromium from the built script-tag bundle, and what
// `npm install palkit` puts on disk: the report of `npm run size` (scripts/size.ts, which builds first and
// fails over a budget) and of `npm run bench` (bench/size.bench.ts, which reports). For each channel element a page with only `<script src=palkit.js>` and the element
// goes launcher → preview → gate (password) → device check, with a stand-in service. Every chunk the
// entry does not import statically (the call UI, canvas cards, languages, daily-js) is held back
// meanwhile: the screens must appear without it. What was fetched is the "before a call" weight; what
// was asked for and held is the call UI, prefetched before the visitor clicks join. It is then let
// through and must define the in-call parts before join is clicked. Each file is counted as the bytes the
// service sends a browser for it (src/server/resources/site: the brotli copy the build wrote, to a browser
// that accepts it, as every current one does over HTTPS); gzip level 9 is printed beside it for reference.
//
// Budgets on the bytes sent (fail above): first file ≤ 8 KB, before a call ≤ 30 KB, nothing but the first
// file before a widget's visitor reaches for the launcher, daily-js and canvas cards never fetched before a
// call. For reference, the same vite settings build `lit` with one element: the floor
// for any Lit launcher. Beside them, what `npm install palkit` puts on disk: the packed browser package
// installed alone into an empty app (packages and MB; budget ≤ 30 packages, ≤ 40 MB).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Route } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { cdnDir, readAsset } from '../../src/server/resources/site/assets.js';
import { acceptedEncodings } from '../../src/server/resources/site/encoding.js';
import { folderBytes, installInto, installedPackages, packWorkspaces } from '../packing.js';

const KB = 1024;
const BUDGET = { first: 8 * KB, beforeCall: 30 * KB, installPackages: 30, installBytes: 40 * KB * KB };
const palkitDist = resolve('src/palkit/dist');
const serverDist = resolve('src/server/dist');
const cdn = join(palkitDist, 'cdn');
const origin = 'http://palkit.test';
const deploymentId = 'dsize';
const channels = ['pal-widget', 'pal-embed', 'pal-landing'] as const;
type Channel = (typeof channels)[number];

const gzBytes = (bytes: Uint8Array | string): number => gzipSync(bytes, { level: 9 }).length;
const gzOf = (file: string): number => gzBytes(readFileSync(file));
/** What Chromium, Firefox and Safari ask for over HTTPS. */
const BROWSER_ACCEPTS = acceptedEncodings('gzip, deflate, br, zstd');
const sentSizes = new Map<string, number>();
/** The bytes the service sends a browser for the file (its response body, as site/index.ts serves it). */
async function measureSent(files: Iterable<string>): Promise<void> {
  for (const file of files) {
    if (sentSizes.has(file)) continue;
    const asset = await readAsset(relative(cdnDir, file), BROWSER_ACCEPTS);
    if (!asset) throw new Error(`the service cannot serve ${name(file)}`);
    sentSizes.set(file, asset.bytes.length);
  }
}
const sent = (file: string): number => {
  const bytes = sentSizes.get(file);
  if (bytes === undefined) throw new Error(`${name(file)} was not measured`);
  return bytes;
};
const kb = (bytes: number): string => `${(bytes / KB).toFixed(2)} KB`;
const sum = (files: Iterable<string>): number => [...files].reduce((total, file) => total + sent(file), 0);
const name = (file: string): string => relative(cdn, file);

function allJs(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? allJs(path) : path.endsWith('.js') ? [path] : [];
  });
}

/** Files a module pulls in with static imports (transitively), resolved relative to it. */
function staticClosure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const match of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g))
    staticClosure(resolve(dirname(entry), match[1]!), seen);
  return seen;
}

// ---- the stand-in service ---------------------------------------------------------------------------
const init = {
  deployment_id: deploymentId,
  channel: 'widget',
  has_password: true,
  captcha: null,
  is_available: true,
  unavailable_reason: null,
  limits: { max_call_duration: null, daily_call_limit_per_user: null },
  customization: { preview: { title: 'Size check' } },
};
const page = (tag: Channel) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>size</title></head>` +
  `<body><script src="${origin}/palkit.js"></script><${tag} deployment-id="${deploymentId}"></${tag}></body></html>`;

interface Visit {
  /** Scripts fetched by the time the device check shows (with everything held back still held). */
  beforeCall: string[];
  /** Held-back scripts asked for before join and what they import (the prefetched call UI). */
  prefetched: string[];
  /** The widget: held-back scripts asked for while only its launcher was on view. */
  beforeOpen: string[];
  /** The widget: scripts fetched before the visitor reached for the launcher (the page loaded, idle). */
  beforeIntent: string[];
}

/** One visitor: the page, the launcher (widget), the preview, the gate, the device check. */
async function visit(browser: Browser, tag: Channel, held: Set<string>): Promise<Visit> {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const fetched: string[] = [];
  const released: string[] = [];
  const waiting: { file: string; release: () => void }[] = [];
  let holding = true;
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(String(e)));
  await tab.route(`${origin}/**`, async (route: Route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/') return route.fulfill({ contentType: 'text/html', body: page(tag) });
    if (url.pathname === `/v2/deployments/${deploymentId}/init`)
      return route.fulfill({ json: { ...init, channel: tag.slice(4).replace('landing', 'landing-page') } });
    if (url.pathname === `/v2/deployments/${deploymentId}/gate`)
      return route.fulfill({ json: { gate_pass: 'gp_size', expires_at: new Date(Date.now() + 9e5).toISOString() } });
    const file = join(cdn, url.pathname);
    if (!url.pathname.endsWith('.js') || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
    if (held.has(file) && holding) await new Promise<void>((release) => waiting.push({ file, release }));
    else (holding ? fetched : released).push(file);
    return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file, 'utf8') });
  });
  const screen = async (what: string, selector: string) => {
    try {
      await tab.locator(selector).first().waitFor({ state: 'visible', timeout: 15_000 });
    } catch {
      const pending = waiting.map((w) => name(w.file)).join(', ') || 'nothing';
      throw new Error(`${tag}: the ${what} did not show (held back: ${pending}; page errors: ${errors.join(' | ') || 'none'})`);
    }
  };
  await tab.goto(`${origin}/`);
  let beforeOpen: string[] = [];
  let beforeIntent: string[] = [];
  if (tag === 'pal-widget') {
    // The light launcher, its deployment loaded: a visitor who never reaches for it pays for the first file only.
    await screen('launcher', 'pal-widget >> [part=launcher]');
    await tab.waitForTimeout(1000);
    beforeIntent = [...fetched];
    // The pointer over it brings the full launcher; a visitor who never opens it must not pay for the call.
    await tab.locator('pal-widget >> [part=launcher]').hover();
    await screen('full launcher', 'pal-widget >> pal-widget-impl >> [part=launcher] span');
    await tab.waitForTimeout(500);
    beforeOpen = waiting.map((w) => w.file);
    await tab.locator('pal-widget >> [part=launcher]').click();
  }
  await screen('preview', 'pal-preview >> [part=start]');
  await tab.locator('pal-preview >> [part=start]').click();
  await screen('gate', 'pal-gate >> input[name=password]');
  await tab.locator('pal-gate >> input[name=password]').fill('size');
  await tab.locator('pal-gate >> button[type=submit]').click();
  await screen('device check', 'pal-haircheck >> [part=join]');
  const asked = waiting.map((w) => w.file);
  // Let the call UI through: joining must not wait for it, so it is ready before join is clicked.
  holding = false;
  for (const w of waiting) w.release();
  await tab
    .waitForFunction(() => ['pal-conversation', 'pal-canvas', 'pal-transcript'].every((n) => customElements.get(n)), null, {
      timeout: 15_000,
    })
    .catch(() => {
      throw new Error(`${tag}: the call UI was not defined before join (asked for: ${asked.map(name).join(', ') || 'nothing'})`);
    });
  // What the released chunks import arrives next; wait until nothing more is asked for.
  for (let quiet = 0, count = -1; quiet < 3; count = released.length) {
    await tab.waitForTimeout(200);
    quiet = released.length === count ? quiet + 1 : 0;
  }
  if (errors.length) throw new Error(`${tag}: page errors: ${errors.join(' | ')}`);
  await context.close();
  return { beforeCall: [...new Set(fetched)], prefetched: [...new Set([...asked, ...released])], beforeOpen, beforeIntent };
}

/** `lit` with one element, built with the script-tag bundle's vite settings. */
async function litFloor(): Promise<number> {
  const entry = 'virtual:lit-floor';
  const source = `import { LitElement, css, html } from 'lit';
class PalFloor extends LitElement {
  static properties = { label: {} };
  static styles = css\`button { font: inherit; }\`;
  constructor() { super(); this.label = 'Talk to us'; }
  render() { return html\`<button part="launcher">\${this.label}</button>\`; }
}
customElements.define('pal-floor', PalFloor);`;
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'cdn-full',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [
      {
        name: 'lit-floor',
        enforce: 'pre',
        resolveId: (id: string) => (id.endsWith(entry) ? `\0${entry}` : null),
        load: (id: string) => (id === `\0${entry}` ? source : null),
      },
    ],
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: { entry, formats: ['es'], fileName: () => 'floor.js' },
      rolldownOptions: { output: { minify: true } },
    },
  })) as Rolldown.RolldownOutput[] | Rolldown.RolldownOutput;
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((o) => o.output)
    .filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
  return chunks.reduce((total, chunk) => total + gzBytes(chunk.code), 0);
}

/** The browser package as `npm install palkit` gets it: packed, installed alone into an empty app. */
function installedBrowserPackage(): { packages: number; bytes: number; tarball: number } {
  const work = mkdtempSync(join(tmpdir(), 'palkit-size-'));
  try {
    const tarball = packWorkspaces(work).get('palkit')!;
    const app = join(work, 'app');
    installInto(app, [tarball]);
    return { packages: installedPackages(app).length, bytes: folderBytes(join(app, 'node_modules')), tarball: statSync(tarball).size };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Measures the built browser package, prints the report and the budgets; false when one is exceeded. */
export async function sizeReport(): Promise<boolean> {
  const first = join(cdn, 'palkit.js');
  const full = join(cdn, 'palkit-full.js');
  for (const file of [first, full]) if (!existsSync(file)) throw new Error(`${name(file)} is missing: run \`npm run build\` first`);
  const eager = staticClosure(full);
  const held = new Set(allJs(cdn).filter((file) => file !== first && !eager.has(file)));

  const browser = await chromium.launch({
    executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  });
  const visits = new Map<Channel, Visit>();
  try {
    for (const tag of channels) visits.set(tag, await visit(browser, tag, held));
  } finally {
    await browser.close();
  }
  await measureSent(allJs(cdn));
  const floor = await litFloor();
  const installed = installedBrowserPackage();

  const daily = [...held].filter((file) => /daily/.test(name(file)));
  const cards = [...held].filter((file) => /(^|\/)card-/.test(name(file)));
  const languages = [...held].filter((file) => /(^|\/)lang-/.test(name(file)));
  const prefetched = new Set([...visits.values()].flatMap((v) => v.prefetched));
  const later = [...held].filter(
    (file) => !prefetched.has(file) && !daily.includes(file) && !cards.includes(file) && !languages.includes(file),
  );

  const row = (label: string, bytes: number, note = '') =>
    console.log(`  ${label.padEnd(52)} ${kb(bytes).padStart(10)}${note ? `  ${note}` : ''}`);
  console.log(
    'bytes sent (brotli, as the service sends them), gzip -9 beside; fetched in Chromium as a visitor goes launcher → preview → gate → device check\n',
  );
  const both = (label: string, files: string[]) => row(label, sum(files), `gzip ${kb(files.reduce((t, f) => t + gzOf(f), 0))}`);
  for (const [tag, v] of visits) {
    console.log(`${tag}: before a call`);
    for (const file of v.beforeCall) both(name(file), [file]);
    both('total', v.beforeCall);
  }
  console.log('\ncall UI, prefetched from the preview on (held back until the device check showed)');
  for (const file of prefetched) row(name(file), sent(file));
  row('total', sum(prefetched));
  console.log('\nloaded later');
  for (const file of cards) row(`${name(file)}`, sent(file), 'when a card of its kind shows');
  for (const file of daily) row(`${name(file)}`, sent(file), 'when a Daily room is joined');
  for (const file of languages) row(`${name(file)}`, sent(file), 'when the page is in that language');
  for (const file of later) row(`${name(file)}`, sent(file), 'on demand');

  console.log('\nreference');
  row('lit with one element (the floor for a Lit launcher)', floor);
  const npmSize = allJs(palkitDist)
    .filter((f) => !f.startsWith(cdn))
    .reduce((total, file) => total + gzOf(file), 0);
  row('npm entry, all modules (lit, zod, daily-js external)', npmSize);
  // Built by npm run build (npm run size); the bench builds only the browser package.
  if (existsSync(serverDist))
    row(
      'companion service (@palkit/server dist, node only)',
      allJs(serverDist)
        .filter((f) => !f.startsWith(join(serverDist, 'cdn')))
        .reduce((total, file) => total + gzOf(file), 0),
    );

  const mb = (bytes: number): string => `${(bytes / KB / KB).toFixed(1)} MB`;
  console.log('\nnpm install palkit (the packed browser package, installed alone into an empty app)');
  console.log(`  ${'tarball'.padEnd(52)} ${kb(installed.tarball).padStart(10)}`);
  console.log(`  ${'installed: packages'.padEnd(52)} ${String(installed.packages).padStart(10)}`);
  console.log(`  ${'installed: on disk (node_modules)'.padEnd(52)} ${mb(installed.bytes).padStart(10)}`);

  const worst = Math.max(...[...visits.values()].map((v) => sum(v.beforeCall)));
  const fetchedBeforeCall = new Set([...visits.values()].flatMap((v) => [...v.beforeCall, ...v.prefetched]));
  const checks: [string, boolean, string][] = [
    [`script-tag first file ≤ ${BUDGET.first / KB} KB`, sent(first) <= BUDGET.first, kb(sent(first))],
    [
      'widget: nothing but the first file until the visitor reaches for it',
      visits.get('pal-widget')!.beforeIntent.every((f) => f === first),
      visits.get('pal-widget')!.beforeIntent.map(name).join(', '),
    ],
    [
      `before a call, every channel element ≤ ${BUDGET.beforeCall / KB} KB`,
      worst <= BUDGET.beforeCall,
      [...visits].map(([tag, v]) => `${tag.slice(4)} ${kb(sum(v.beforeCall))}`).join(', '),
    ],
    ['call UI prefetched before join', prefetched.size > 0, kb(sum(prefetched))],
    [
      'widget: no call UI before its popup opens',
      visits.get('pal-widget')!.beforeOpen.length === 0,
      visits.get('pal-widget')!.beforeOpen.map(name).join(', ') || 'none',
    ],
    [
      'daily-js not fetched before a call',
      daily.length > 0 && daily.every((file) => !fetchedBeforeCall.has(file)),
      daily.map((f) => `${name(f)} ${kb(sent(f))}`).join(', ') || 'missing',
    ],
    ['canvas cards not fetched before a call', cards.every((file) => !fetchedBeforeCall.has(file)), `${cards.length} card chunks`],
    [
      `npm install palkit ≤ ${BUDGET.installPackages} packages, ≤ ${BUDGET.installBytes / KB / KB} MB`,
      installed.packages <= BUDGET.installPackages && installed.bytes <= BUDGET.installBytes,
      `${installed.packages} packages, ${mb(installed.bytes)}`,
    ],
  ];
  let failed = false;
  console.log('\nbudgets');
  for (const [label, ok, figure] of checks) {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label.padEnd(52)} ${figure}`);
    failed ||= !ok;
  }
  return !failed;
}
