// A visitor's browser in any of the three engines, for the end-to-end visitor walks: one small API over
// Playwright (Chromium), puppeteer-core over WebDriver BiDi (Firefox ESR) and W3C WebDriver (WebKitGTK's
// MiniBrowser). Selectors are CSS steps separated by spaces, each step matched anywhere below the previous
// one *through shadow roots* (as Playwright's CSS engine does: `pal-widget [part="launcher"]`); a target can
// also require a text. Clicks, taps and typing are real input events (user gestures), never `el.click()`.
// Media: fake camera and microphone in every engine; media playback needs a user gesture in Firefox and
// WebKit as for a real visitor (WebKit's MiniBrowser runs with --media-playback-requires-user-gesture).
import { chromium, type Browser as PwBrowser, type BrowserContext as PwContext, type Page as PwPage } from 'playwright-core';
import puppeteer, { type Browser as PpBrowser, type BrowserContext as PpContext, type Page as PpPage } from 'puppeteer-core';
import {
  CHROMIUM_PATH,
  FIREFOX_PATH,
  WebDriverSession,
  chromiumArgs,
  ensurePulseAudio,
  firefoxPrefs,
  selectedEngines,
  startDisplay,
  startStandInProxy,
  startWebKitDriver,
  type ElementReference,
  type Engine,
} from './engines.mjs';

export type { Engine } from './engines.mjs';
export { selectedEngines };

export interface Size {
  name: string;
  width: number;
  height: number;
  /** A phone: touch input (taps), and a touch screen as far as the engine can say so. */
  touch: boolean;
}

export const DESKTOP: Size = { name: 'desktop 1366', width: 1366, height: 900, touch: false };
export const PHONE: Size = { name: 'phone 390', width: 390, height: 844, touch: true };

export type Target = string | { css: string; hasText?: string };

export interface VisitorPage {
  engine: Engine;
  size: Size;
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Runs `fn(arg)` in the page (it may be async) and returns its JSON-able result. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  /** Runs `source` before the page's own scripts where the engine can (Chromium, Firefox), else right after each `goto` (WebKit). */
  addInitScript(source: string): Promise<void>;
  /** A real click, or a tap on a touch page. */
  click(target: Target): Promise<void>;
  /** Clears a field and types `text` into it key by key. */
  fill(target: Target, text: string): Promise<void>;
  /** Focuses the element and presses a key (`Enter`, `Tab`, `Shift+Tab`, …). */
  press(target: Target, key: string): Promise<void>;
  waitFor(target: Target, options?: { state?: 'visible' | 'attached' | 'hidden' | 'detached'; timeout?: number }): Promise<void>;
  count(target: Target): Promise<number>;
  innerText(target: Target): Promise<string>;
  getAttribute(target: Target, name: string): Promise<string | null>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}

export interface VisitorBrowser {
  engine: Engine;
  newPage(size: Size): Promise<VisitorPage>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT = 10_000;

// In the page: the elements a target names, through shadow roots, in document order.
const FIND = `function __palkitFind(selector, hasText, visibleOnly) {
  const steps = [];
  let depth = 0, quote = null, current = '';
  for (const ch of selector.trim()) {
    if (quote) { if (ch === quote) quote = null; current += ch; continue; }
    if (ch === '"' || ch === "'") { quote = ch; current += ch; continue; }
    if (ch === '[' || ch === '(') depth++;
    if (ch === ']' || ch === ')') depth--;
    if (/\\s/.test(ch) && depth === 0) { if (current) steps.push(current); current = ''; continue; }
    current += ch;
  }
  if (current) steps.push(current);
  const below = (root, out) => {
    if (root.shadowRoot) below(root.shadowRoot, out);
    for (const child of root.children) { out.push(child); below(child, out); }
    return out;
  };
  let scope = [document];
  for (const step of steps) {
    const found = new Set();
    for (const root of scope) for (const el of below(root, [])) if (el.matches(step)) found.add(el);
    scope = [...found];
  }
  const text = (node) => {
    let t = '';
    if (node.shadowRoot) t += text(node.shadowRoot);
    for (const c of node.childNodes) t += c.nodeType === 3 ? c.data : c.nodeType === 1 ? text(c) : '';
    return t;
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  return scope.filter((el) => (!hasText || text(el).includes(hasText)) && (!visibleOnly || visible(el)));
}`;

function parts(target: Target): { css: string; hasText: string | null } {
  return typeof target === 'string' ? { css: target, hasText: null } : { css: target.css, hasText: target.hasText ?? null };
}

function describe(target: Target): string {
  const { css, hasText } = parts(target);
  return hasText ? `${css} with text "${hasText}"` : css;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An element handle's errors once its element left the document (Playwright, puppeteer, WebDriver), or none visible. */
const GONE = /not attached to the DOM|detached from document|stale element reference|: no visible /i;

/** What each engine's page does; the shared waiting and querying is built on it. */
abstract class BasePage implements VisitorPage {
  private initScripts: string[] = [];
  constructor(
    readonly engine: Engine,
    readonly size: Size,
  ) {}

  abstract goto(url: string): Promise<void>;
  abstract url(): Promise<string>;
  abstract evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  abstract close(): Promise<void>;
  abstract screenshot(): Promise<Buffer>;
  protected abstract act(target: Target, action: 'click' | 'tap' | 'focus'): Promise<void>;
  protected abstract typeInto(target: Target, text: string): Promise<void>;
  protected abstract pressKey(key: string): Promise<void>;
  protected abstract runInitScript(source: string): Promise<void>;

  /** Only WebKit replays init scripts after navigation; the others register them with the engine. */
  protected async afterGoto(): Promise<void> {
    for (const source of this.initScripts) await this.runInitScript(source);
  }

  async addInitScript(source: string): Promise<void> {
    this.initScripts.push(source);
  }

  /** `then`, a string expression over `found` (the matching elements, only the visible ones when asked). */
  protected query<T>(target: Target, then: string, visibleOnly = false): Promise<T> {
    const { css, hasText } = parts(target);
    return this.evaluate(
      new Function('args', `${FIND}\nconst found = __palkitFind(args[0], args[1], args[2]);\nreturn ${then};`) as (a: unknown[]) => T,
      [css, hasText, visibleOnly],
    );
  }

  async waitFor(target: Target, options: { state?: 'visible' | 'attached' | 'hidden' | 'detached'; timeout?: number } = {}): Promise<void> {
    const state = options.state ?? 'visible';
    const deadline = Date.now() + (options.timeout ?? DEFAULT_TIMEOUT);
    for (;;) {
      const n = await this.query<number>(target, 'found.length', state === 'visible' || state === 'hidden');
      if ((state === 'visible' || state === 'attached') === n > 0) return;
      if (Date.now() > deadline)
        throw new Error(
          `${this.engine}: timed out after ${options.timeout ?? DEFAULT_TIMEOUT} ms waiting for ${describe(target)} to be ${state}`,
        );
      await sleep(100);
    }
  }

  count(target: Target): Promise<number> {
    return this.query(target, 'found.length');
  }

  async innerText(target: Target): Promise<string> {
    await this.waitFor(target, { state: 'attached' });
    return this.query(target, 'found[0].innerText');
  }

  async getAttribute(target: Target, name: string): Promise<string | null> {
    await this.waitFor(target, { state: 'attached' });
    return this.query(target, `found[0].getAttribute(${JSON.stringify(name)})`);
  }

  async click(target: Target): Promise<void> {
    await this.onFresh(target, () => this.act(target, this.size.touch ? 'tap' : 'click'));
  }

  async fill(target: Target, text: string): Promise<void> {
    await this.onFresh(target, () => this.typeInto(target, text));
  }

  async press(target: Target, key: string): Promise<void> {
    await this.onFresh(target, () => this.act(target, 'focus'));
    await this.pressKey(key);
  }

  /**
   * `action` on the element `target` names, found again when it left the page between being found and being
   * acted on: the script tag's light launcher is replaced by the full widget's once its code arrives, and on
   * a loaded machine that came between the two (Playwright: "Element is not attached to the DOM").
   */
  private async onFresh(target: Target, action: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.waitFor(target);
      try {
        return await action();
      } catch (error) {
        if (attempt >= 3 || !GONE.test(String((error as Error).message))) throw error;
      }
    }
  }
}

/** Chromium and Firefox: both hand out element handles with click, tap, focus and type. */
interface Handle {
  click(): Promise<unknown>;
  tap(): Promise<unknown>;
  focus(): Promise<unknown>;
  type(text: string): Promise<unknown>;
  evaluate(fn: (el: Element) => void): Promise<unknown>;
  dispose(): Promise<unknown>;
}

/**
 * In the page: resolves once the element's box has held still for two frames (at most 2 s), as Playwright
 * waits before it clicks. puppeteer (Firefox) taps the centre it measured; a box still moving then (the
 * call's controls settling on a loaded machine) is tapped beside, and a Firefox phone walk's Chat tap
 * opened no chat once at load 22.
 */
// (A string: tsx would wrap the named inner function in a __name() call that the page does not have.)
const HOLDS_STILL = new Function(
  'el',
  `return new Promise((resolve) => {
  const end = performance.now() + 2000;
  let last = '', still = 0;
  const look = () => {
    const r = el.getBoundingClientRect();
    const box = r.x + ' ' + r.y + ' ' + r.width + ' ' + r.height;
    still = box === last ? still + 1 : 0;
    last = box;
    if (still >= 2 || performance.now() > end) resolve();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
});`,
) as (el: Element) => Promise<void>;

abstract class HandlePage extends BasePage {
  /** The engine's handle on what a page function returned (an element, or null). */
  protected abstract evaluateHandle(fn: (args: unknown[]) => Element | null, args: unknown[]): Promise<{ asElement(): unknown }>;

  /** The first visible element a target names. */
  protected async handle(target: Target): Promise<Handle> {
    const { css, hasText } = parts(target);
    const js = await this.evaluateHandle(
      new Function('args', `${FIND}\nreturn __palkitFind(args[0], args[1], true)[0] ?? null;`) as (a: unknown[]) => Element | null,
      [css, hasText],
    );
    const el = js.asElement();
    if (!el) throw new Error(`${this.engine}: no visible ${describe(target)}`);
    return el as Handle;
  }

  protected async act(target: Target, action: 'click' | 'tap' | 'focus'): Promise<void> {
    const handle = await this.handle(target);
    try {
      if (action !== 'focus') await handle.evaluate(HOLDS_STILL);
      if (action === 'focus') await handle.focus();
      else if (action === 'tap') await handle.tap();
      else await handle.click();
    } finally {
      await handle.dispose();
    }
  }

  protected async typeInto(target: Target, text: string): Promise<void> {
    const handle = await this.handle(target);
    try {
      await handle.focus();
      await handle.evaluate((el) => {
        (el as HTMLInputElement).select?.();
      });
      // Selected text is replaced by the first key typed; an empty field stays empty until then.
      await this.pressKey('Backspace');
      await handle.type(text);
    } finally {
      await handle.dispose();
    }
  }

  protected async runInitScript(): Promise<void> {
    // Registered with the engine in addInitScript.
  }
}

class ChromiumPage extends HandlePage {
  constructor(
    size: Size,
    private readonly context: PwContext,
    readonly page: PwPage,
  ) {
    super('chromium', size);
  }

  override async addInitScript(source: string): Promise<void> {
    await this.context.addInitScript(source);
  }

  async goto(url: string): Promise<void> {
    // Not the 10 s of other waits: a page load took longer at load 20 (Navigation timeout of 10000 ms exceeded).
    await this.page.goto(url, { timeout: 60_000 });
  }

  async url(): Promise<string> {
    return this.page.url();
  }

  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
    return (this.page as any).evaluate(fn, arg);
  }

  protected evaluateHandle(fn: (args: unknown[]) => Element | null, args: unknown[]): Promise<{ asElement(): unknown }> {
    return this.page.evaluateHandle(fn, args);
  }

  protected async pressKey(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  screenshot(): Promise<Buffer> {
    return this.page.screenshot();
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }
}

class FirefoxPage extends HandlePage {
  constructor(
    size: Size,
    private readonly context: PpContext,
    readonly page: PpPage,
  ) {
    super('firefox', size);
  }

  override async addInitScript(source: string): Promise<void> {
    await this.page.evaluateOnNewDocument(source);
  }

  async goto(url: string): Promise<void> {
    // Not the 10 s of other waits: a page load took longer at load 20 (Navigation timeout of 10000 ms exceeded).
    await this.page.goto(url, { timeout: 60_000 });
  }

  async url(): Promise<string> {
    return this.page.url();
  }

  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
    return (this.page as any).evaluate(fn, arg);
  }

  protected evaluateHandle(fn: (args: unknown[]) => Element | null, args: unknown[]): Promise<{ asElement(): unknown }> {
    return this.page.evaluateHandle(fn, args);
  }

  protected async pressKey(key: string): Promise<void> {
    if (key.includes('+') && key !== '+') {
      const keys = key.split('+');
      for (const k of keys) await this.page.keyboard.down(k as never);
      for (const k of keys.reverse()) await this.page.keyboard.up(k as never);
    } else {
      await this.page.keyboard.press(key as never);
    }
  }

  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.page.screenshot());
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }
}

class WebKitPage extends BasePage {
  constructor(
    size: Size,
    readonly session: WebDriverSession,
    private readonly stopDriver: () => Promise<void>,
  ) {
    super('webkit', size);
  }

  async goto(url: string): Promise<void> {
    await this.session.goto(url);
    await this.afterGoto();
  }

  url(): Promise<string> {
    return this.session.url();
  }

  protected async runInitScript(source: string): Promise<void> {
    await this.session.execute(source);
  }

  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
    // esbuild (through tsx) may wrap named inner functions with __name(); the page has no such helper.
    return this.session.executeAsync(`const __name = (f) => f; return await (${fn.toString()})(args[0]);`, [
      arg === undefined ? null : arg,
    ]);
  }

  private async element(target: Target): Promise<ElementReference> {
    const { css, hasText } = parts(target);
    const el = await this.session.execute(`${FIND}\nreturn __palkitFind(arguments[0], arguments[1], true)[0] ?? null;`, [css, hasText]);
    if (!el) throw new Error(`webkit: no visible ${describe(target)}`);
    return el;
  }

  protected async act(target: Target, action: 'click' | 'tap' | 'focus'): Promise<void> {
    const el = await this.element(target);
    if (action === 'focus') await this.session.execute('arguments[0].focus()', [el]);
    else if (action === 'tap') await this.session.tap(el);
    else await this.session.click(el);
  }

  protected async typeInto(target: Target, text: string): Promise<void> {
    const el = await this.element(target);
    await this.session.clear(el);
    await this.session.sendKeysTo(el, text);
  }

  protected async pressKey(key: string): Promise<void> {
    await this.session.press(key);
  }

  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.session.command('GET', '/screenshot'), 'base64');
  }

  async close(): Promise<void> {
    try {
      await this.session.close();
    } finally {
      await this.stopDriver();
    }
  }
}

async function openChromium(): Promise<VisitorBrowser> {
  // As a visitor's Chromium: audible media needs a gesture (no autoplay flag), fake devices without a prompt.
  const browser: PwBrowser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: chromiumArgs.filter((a) => !a.startsWith('--autoplay-policy')),
  });
  return {
    engine: 'chromium',
    async newPage(size) {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        hasTouch: size.touch,
        isMobile: size.touch,
      });
      context.setDefaultTimeout(DEFAULT_TIMEOUT);
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error(`[chromium page error] ${error.message}`));
      return new ChromiumPage(size, context, page);
    },
    close: () => browser.close(),
  };
}

async function openFirefox(sizes: Size[]): Promise<VisitorBrowser> {
  ensurePulseAudio();
  // Touch is a browser-wide preference in Firefox: a second Firefox for phone-sized pages, started when needed.
  const browsers = new Map<boolean, Promise<PpBrowser>>();
  const launch = (touch: boolean) => {
    let b = browsers.get(touch);
    if (!b) {
      b = puppeteer.launch({
        browser: 'firefox',
        protocol: 'webDriverBiDi',
        executablePath: FIREFOX_PATH,
        headless: true,
        // A walk's calls answer within seconds even on a busy machine: a minute without answer is a stuck page.
        protocolTimeout: 60_000,
        // As a visitor's Firefox: its default autoplay rules (audible media after a gesture).
        extraPrefsFirefox: firefoxPrefs({ autoplay: false, touch }),
      });
      browsers.set(touch, b);
    }
    return b;
  };
  // Each one the caller's pages need starts now, side by side: the phone pages' Firefox is ready when the
  // desktop walks are done (launched at the first phone page, it took 6-14 s of that walk). A failed
  // launch is thrown by newPage.
  for (const touch of new Set(sizes.map((s) => s.touch))) launch(touch).catch(() => undefined);
  return {
    engine: 'firefox',
    async newPage(size) {
      const browser = await launch(size.touch);
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      page.setDefaultTimeout(DEFAULT_TIMEOUT);
      await page.setViewport({ width: size.width, height: size.height, hasTouch: size.touch, isMobile: size.touch });
      page.on('pageerror', (error) => console.error(`[firefox page error] ${(error as Error).message}`));
      return new FirefoxPage(size, context, page);
    },
    async close() {
      for (const b of browsers.values()) await (await b.catch(() => null))?.close().catch(() => undefined);
    },
  };
}

async function openWebKit(): Promise<VisitorBrowser> {
  ensurePulseAudio();
  const display = await startDisplay();
  // Other hosts than this machine answer with a stand-in at once (no network here; WebKit would wait).
  const proxy = await startStandInProxy();
  const open = new Set<VisitorPage>();
  return {
    engine: 'webkit',
    async newPage(size) {
      // WebKitWebDriver holds one session at a time: a driver per page.
      const driver = await startWebKitDriver({ display: display.display });
      // A walk's command answers within a few seconds even on a busy machine (page loads: 30 s at most): one
      // unanswered for 45 s means MiniBrowser is stuck, and the walk is retried sooner than after 90 s.
      // A page that fails to open stops its driver: a driver left running kept the test file's process alive
      // after its last test (seen: GET /window/rect failing on a loaded machine, the file hung for 14 min).
      let session: WebDriverSession | undefined;
      try {
        session = await WebDriverSession.webkit(driver.url, { proxyArgs: proxy.args, commandTimeoutMs: 45_000 });
        await session.command('POST', '/timeouts', { script: 30_000, pageLoad: 30_000 });
        await session.setViewport({ width: size.width, height: size.height });
      } catch (error) {
        await session?.close().catch(() => undefined);
        await driver.close();
        throw error;
      }
      const page = new WebKitPage(size, session, async () => {
        open.delete(page);
        await driver.close();
      });
      open.add(page);
      return page;
    },
    async close() {
      for (const page of [...open]) await page.close().catch(() => undefined);
      await proxy.close();
      await display.close();
    },
  };
}

/** `sizes`: the page sizes the caller will open, for an engine that starts a browser per kind of size (Firefox). */
export function openBrowser(engine: Engine, sizes: Size[] = []): Promise<VisitorBrowser> {
  return engine === 'chromium' ? openChromium() : engine === 'firefox' ? openFirefox(sizes) : openWebKit();
}
