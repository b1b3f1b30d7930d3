// Web-test-runner launchers for Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK's MiniBrowser
// (WebKitWebDriver under Xvfb). Each test file gets a page of its own, 800×600 as web-test-runner's own
// launchers: in Firefox a tab in the user context every file shares (as Chromium's pages share one context,
// see web-test-runner.config.mjs); in WebKit a new tab in the MiniBrowser the file before used, whose tab
// closed as it ended (one tab reused from file to file once timed out a camera test). Both answer
// @web/test-runner-commands' `setViewport`, `sendKeys` and `sendMouse` through the `getPage()` shape its
// puppeteer branch uses (`page.setViewport`, `page.keyboard.*`, `page.mouse.*`).
import puppeteer from 'puppeteer-core';
import {
  FIREFOX_PATH,
  WebDriverSession,
  ensurePulseAudio,
  firefoxPrefs,
  startDisplay,
  startStandInProxy,
  startWebKitDriver,
} from '../../helpers/engines.mjs';

const VIEWPORT = { width: 800, height: 600 };
/** How long a MiniBrowser may take to come up, so that three tries fit web-test-runner's 120 s for a page. */
const NEW_SESSION_MS = 30_000;
/** How long one Firefox tab task may keep the others from the front (see withFrontTab). */
const FRONT_TAB_HOLD_MS = 30_000;
/** How long a MiniBrowser may take to close. */
const CLOSE_MS = 15_000;

export class FirefoxLauncher {
  name = 'Firefox';
  type = 'puppeteer';

  constructor({ reducedMotion = false, concurrency } = {}) {
    this.reducedMotion = reducedMotion;
    if (concurrency) this.concurrency = concurrency;
    this.pages = new Map();
    this.browser = undefined;
    this.frontTab = Promise.resolve();
  }

  async initialize(config) {
    this.config = config;
    ensurePulseAudio();
  }

  async launch() {
    this.launching ??= puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: FIREFOX_PATH,
      headless: true,
      extraPrefsFirefox: firefoxPrefs({ reducedMotion: this.reducedMotion }),
    });
    this.browser = await this.launching;
    return this.browser;
  }

  async startSession(sessionId, url) {
    const browser = await this.launch();
    const page = await this.withFrontTab(() => this.openTab(browser));
    this.pages.set(sessionId, { page });
    await page.setViewport(VIEWPORT);
    await page.goto(url);
  }

  /**
   * A new tab (which Firefox puts in front), in the one user context every file's tab shares: its caches
   * carry from file to file (192 s for the suite in a context per file, 155 s so, at a load of 16-21).
   */
  async openTab(browser) {
    this.context ??= browser.createBrowserContext();
    const context = await this.context;
    for (let attempt = 1; ; attempt++) {
      try {
        return await context.newPage();
      } catch (error) {
        // Firefox's remote agent sometimes reports a tab it has just made as discarded: make another.
        if (attempt >= 3) throw error;
      }
    }
  }

  /**
   * Runs `task` once no other task that changes or needs the tab in front is under way: a key command (which
   * brings its tab to the front), opening a tab (which Firefox puts in front) and closing one (which gives the
   * front to another). A file starting while another's key command was on its way used to take the focus
   * from it, and the key went nowhere. A task that hangs holds the others back for 30 s at most.
   */
  withFrontTab(task) {
    const run = this.frontTab.then(task);
    const heldAtMost = new Promise((resolve) => setTimeout(resolve, FRONT_TAB_HOLD_MS).unref());
    this.frontTab = Promise.race([run.catch(() => undefined), heldAtMost]);
    return run;
  }

  isActive(sessionId) {
    return this.pages.has(sessionId);
  }

  getBrowserUrl(sessionId) {
    return this.pages.get(sessionId)?.page.url();
  }

  /**
   * The page as @web/test-runner-commands uses it. Keys go to the focused element of the tab in front:
   * with two test files at once, each key command first brings its own tab to the front, one at a time.
   */
  getPage(sessionId) {
    const entry = this.pages.get(sessionId);
    if (!entry) throw new Error(`Could not find a page for session ${sessionId}`);
    entry.commands ??= this.commandsFor(entry.page);
    return entry.commands;
  }

  commandsFor(page) {
    const inFront = (action) =>
      this.withFrontTab(async () => {
        // The element the test focused, perhaps while another file's tab was in front.
        const focused = await page.evaluateHandle(deepActiveElement);
        await retryWhileSettling(() => page.bringToFront());
        // On a busy machine the tab takes a moment to get its focus back once in front (seen: 2.5 s), and a
        // key sent before then would go nowhere. Wait for it, then make sure the test's element has focus.
        await page.waitForFunction(() => document.hasFocus(), { timeout: 5_000, polling: 20 }).catch(() => undefined);
        await focused
          .evaluate((element) => {
            let active = document.activeElement;
            while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
            if (element instanceof HTMLElement && element.isConnected && active !== element) element.focus();
          })
          .catch(() => undefined);
        await focused.dispose().catch(() => undefined);
        return retryWhileSettling(action);
      });
    return {
      setViewport: (viewport) => page.setViewport(viewport),
      url: () => page.url(),
      keyboard: {
        press: (key) => inFront(() => page.keyboard.press(key)),
        type: (text) => inFront(() => page.keyboard.type(text)),
        down: (key) => inFront(() => page.keyboard.down(key)),
        up: (key) => inFront(() => page.keyboard.up(key)),
      },
      // sendMouse: the pointer's events reach the page whichever tab is in front.
      mouse: {
        move: (x, y) => page.mouse.move(x, y),
        down: (options) => page.mouse.down(options),
        up: (options) => page.mouse.up(options),
        click: (x, y, options) => page.mouse.click(x, y, options),
        reset: () => page.mouse.reset(),
      },
    };
  }

  async stopSession(sessionId) {
    const entry = this.pages.get(sessionId);
    if (!entry) throw new Error(`No page for session ${sessionId}`);
    this.pages.delete(sessionId);
    await this.withFrontTab(() => entry.page.close().catch(() => undefined));
    return {};
  }

  async startDebugSession() {
    throw new Error('Debugging is not supported for Firefox here: run headed Firefox by hand.');
  }

  async stop() {
    await this.browser?.close().catch(() => undefined);
  }
}

/**
 * Firefox's remote agent sometimes finds a live tab without a current window for a moment and answers "no such
 * frame" (DiscardedBrowsingContextError from waitForCurrentWindowGlobal; seen in CI on browsingContext.activate).
 * That answer comes while the agent looks for the tab's window, before it acts, so the command is tried again,
 * up to five times, 200 ms apart.
 */
async function retryWhileSettling(command) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await command();
    } catch (error) {
      if (attempt >= 5 || !/no such frame|DiscardedBrowsingContext/.test(String(error?.message ?? error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The focused element, through every shadow root (run in the page). */
function deepActiveElement() {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** What @web/test-runner-commands calls on a "puppeteer" page, over one WebDriver session. */
class WebDriverPage {
  constructor(session) {
    this.session = session;
    this.keyboard = {
      press: (key) => session.press(key),
      type: (text) => session.type(text),
      down: (key) => session.keyDown(key),
      up: (key) => session.keyUp(key),
    };
    // sendMouse: one WebDriver action each; the driver keeps the pointer's place and pressed button between them.
    const mouse = (...actions) =>
      session.command('POST', '/actions', { actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }] });
    const button = (options) => ({ left: 0, middle: 1, right: 2 })[options?.button ?? 'left'];
    this.mouse = {
      move: (x, y) => mouse({ type: 'pointerMove', duration: 0, origin: 'viewport', x, y }),
      down: (options) => mouse({ type: 'pointerDown', button: button(options) }),
      up: (options) => mouse({ type: 'pointerUp', button: button(options) }),
      click: (x, y, options) =>
        mouse(
          { type: 'pointerMove', duration: 0, origin: 'viewport', x, y },
          { type: 'pointerDown', button: button(options) },
          { type: 'pointerUp', button: button(options) },
        ),
      reset: () => session.command('DELETE', '/actions'),
    };
  }

  setViewport({ width, height }) {
    return this.session.setViewport({ width, height });
  }
}

export class WebKitLauncher {
  name = 'WebKit';
  type = 'puppeteer';

  /** `gesture`: media needs a user gesture (Safari's rule); unit tests start media without one, as in Chromium. */
  constructor({ reducedMotion = false, gesture = true, concurrency } = {}) {
    this.reducedMotion = reducedMotion;
    this.gesture = gesture;
    if (concurrency) this.concurrency = concurrency;
    this.sessions = new Map();
    /** Each driver's browser left open between files, on a fresh tab. */
    this.open = new Map();
  }

  async initialize(config) {
    this.config = config;
    ensurePulseAudio();
    this.display = await startDisplay();
    this.proxy = await startStandInProxy();
    // WebKitWebDriver holds one session at a time: one driver per test file run at once.
    const slots = this.concurrency ?? config.concurrency ?? 2;
    this.drivers = await Promise.all(
      Array.from({ length: slots }, () => startWebKitDriver({ display: this.display.display, reducedMotion: this.reducedMotion })),
    );
    this.free = [...this.drivers];
    this.waiting = [];
  }

  async acquire() {
    const driver = this.free.shift();
    if (driver) return driver;
    return await new Promise((resolve) => this.waiting.push(resolve));
  }

  release(driver) {
    const next = this.waiting.shift();
    if (next) next(driver);
    else this.free.push(driver);
  }

  /**
   * A fresh WebKitWebDriver in `driver`'s slot: one whose MiniBrowser failed to come up, or did not close,
   * may still hold its one session (CI once waited out web-test-runner's 120 s for a page that way).
   */
  async replace(driver) {
    await driver.close();
    const fresh = await startWebKitDriver({ display: this.display.display, reducedMotion: this.reducedMotion });
    this.drivers[this.drivers.indexOf(driver)] = fresh;
    return fresh;
  }

  async startSession(sessionId, url) {
    let driver = await this.acquire();
    // The browser the file before left open on a fresh tab, if it did (see stopSession) and still answers.
    let session = this.open.get(driver);
    this.open.delete(driver);
    if (session && !(await answers(session))) {
      await session.close();
      if (session.stuck) driver = await this.replace(driver);
      session = undefined;
    }
    for (let attempt = 1; !session; attempt++) {
      try {
        session = await WebDriverSession.webkit(driver.url, {
          gesture: this.gesture,
          proxyArgs: this.proxy.args,
          newSessionTimeoutMs: NEW_SESSION_MS,
        });
        break;
      } catch (error) {
        // MiniBrowser sometimes fails to come up under load: two more tries, each with a fresh driver.
        const output = driver.output().slice(-2000);
        driver = await this.replace(driver);
        if (attempt >= 3) {
          this.release(driver);
          throw new Error(`${error.message}\n${output}`);
        }
      }
    }
    const page = new WebDriverPage(session);
    page.driver = driver;
    await session.command('POST', '/timeouts', { pageLoad: 60_000 });
    this.sessions.set(sessionId, page);
    await session.setViewport(VIEWPORT);
    await session.goto(url);
  }

  isActive(sessionId) {
    return this.sessions.has(sessionId);
  }

  getBrowserUrl(sessionId) {
    return this.getPage(sessionId).session.url();
  }

  getPage(sessionId) {
    const page = this.sessions.get(sessionId);
    if (!page) throw new Error(`Could not find a page for session ${sessionId}`);
    return page;
  }

  async stopSession(sessionId) {
    const page = this.sessions.get(sessionId);
    if (!page) throw new Error(`No page for session ${sessionId}`);
    this.sessions.delete(sessionId);
    // A browser that does not close within this is stuck, and its driver is replaced for the next file.
    const { session, driver } = page;
    const commandTimeoutMs = session.commandTimeoutMs;
    session.commandTimeoutMs = CLOSE_MS;
    if (await freshTab(session)) {
      session.commandTimeoutMs = commandTimeoutMs;
      this.open.set(driver, session);
      this.release(driver);
      return {};
    }
    await session.close();
    this.release(session.stuck ? await this.replace(driver) : driver);
    return {};
  }

  async startDebugSession() {
    throw new Error('Debugging is not supported for WebKit here: run MiniBrowser by hand.');
  }

  async stop() {
    await Promise.all([...this.sessions.values()].map((p) => p.session.close()));
    await Promise.all([...this.open.values()].map((session) => session.close()));
    this.open.clear();
    this.sessions.clear();
    await Promise.all((this.drivers ?? []).map((d) => d.close()));
    await this.proxy?.close();
    await this.display?.close();
  }
}

/** Whether a browser left open between files still answers (one that crashed or hung is not reused). */
async function answers(session) {
  const commandTimeoutMs = session.commandTimeoutMs;
  session.commandTimeoutMs = CLOSE_MS;
  try {
    await session.command('GET', '/window');
    return true;
  } catch {
    return false;
  } finally {
    session.commandTimeoutMs = commandTimeoutMs;
  }
}

/**
 * The next file's page in the same MiniBrowser: a new tab (its own sessionStorage; the browser's cache is kept),
 * and the file's tab closed now, so that nothing of it runs on. False when the browser did not do so in time.
 */
async function freshTab(session) {
  try {
    const { handle } = await session.command('POST', '/window/new', { type: 'tab' });
    await session.command('DELETE', '/window');
    await session.command('POST', '/window', { handle });
    return true;
  } catch {
    return false;
  }
}
