// The three browser engines the tests run in, and what each needs from the machine:
// - chromium: Debian's /usr/bin/chromium through playwright-core (fake camera and microphone by flags);
// - firefox: Debian's firefox-esr through puppeteer-core over WebDriver BiDi (Playwright's Firefox needs a
//   build of its own); headless Firefox runs an AudioContext only with an audio output, so the test
//   process starts a PulseAudio daemon of its own with a null sink;
// - webkit: WebKitGTK's MiniBrowser driven by WebKitWebDriver (webkit2gtk-driver) under Xvfb, with mock
//   capture devices and media that needs a user gesture, as in Safari.
// Used by web-test-runner.config.mjs (the browser suite) and test/helpers/visitor.ts (end-to-end walks).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

/** The engines asked for by PALKIT_BROWSERS (comma-separated; default all three), in a fixed order. */
export function selectedEngines(value = process.env.PALKIT_BROWSERS) {
  if (!value || value.trim() === '' || value.trim() === 'all') return [...ENGINES];
  const asked = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = asked.filter((e) => !ENGINES.includes(e));
  if (unknown.length > 0) throw new Error(`PALKIT_BROWSERS: unknown engine ${unknown.join(', ')} (known: ${ENGINES.join(', ')})`);
  return ENGINES.filter((e) => asked.includes(e));
}

export const CHROMIUM_PATH = process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium';
export const FIREFOX_PATH = process.env.PALKIT_FIREFOX ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER_PATH = process.env.PALKIT_WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * Firefox preferences: fake camera and microphone without a permission prompt, no first-run noise.
 * `autoplay` true lets media play without a gesture (as Chromium's flag does for the browser suite).
 */
export function firefoxPrefs({ reducedMotion = false, autoplay = true, touch = false } = {}) {
  return {
    'media.navigator.streams.fake': true,
    'media.navigator.permission.disabled': true,
    'permissions.default.camera': 1,
    'permissions.default.microphone': 1,
    'browser.shell.checkDefaultBrowser': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'app.normandy.enabled': false,
    // web-test-runner keeps two test files' tabs open at once, and the one behind is hidden: Firefox runs a
    // hidden tab's timers once a second (a 40 ms interval ticked 3 times in 3 s), so a test there waiting for
    // a face's frames or a backoff ran past its budget. A visitor's call is in the tab in front: the tests get
    // the timers a tab in front has (Chromium's and WebKit's test pages are never hidden here).
    'dom.min_background_timeout_value': 4,
    'dom.min_background_timeout_value_without_budget_throttling': 4,
    'dom.timeout.enable_budget_timer_throttling': false,
    // ...and its frames: a hidden tab's refresh driver ticks once a second, so each requestAnimationFrame
    // there (@open-wc's fixture() waits for one after rendering anything that is not a Lit element, and a
    // settle waits for animations) cost up to a second.
    'layout.throttled_frame_rate': 60,
    ...(autoplay ? { 'media.autoplay.default': 0, 'media.autoplay.blocking_policy': 0 } : {}),
    ...(reducedMotion ? { 'ui.prefersReducedMotion': 1 } : {}),
    // A phone: touch events, and a coarse primary pointer without hover (as media queries see a phone).
    ...(touch ? { 'dom.w3c_touch_events.enabled': 1, 'ui.primaryPointerCapabilities': 1, 'ui.allPointerCapabilities': 1 } : {}),
  };
}

/** MiniBrowser's own path (webkit2gtk's libexec folder differs between architectures). */
export function miniBrowserPath() {
  if (process.env.PALKIT_MINIBROWSER) return process.env.PALKIT_MINIBROWSER;
  const candidates = [
    '/usr/lib/x86_64-linux-gnu',
    '/usr/lib/aarch64-linux-gnu',
    '/usr/lib/arm-linux-gnueabihf',
    '/usr/lib',
    '/usr/libexec',
  ].flatMap((dir) => [`${dir}/webkit2gtk-4.1/MiniBrowser`, `${dir}/webkit2gtk-4.0/MiniBrowser`, `${dir}/webkitgtk-6.0/MiniBrowser`]);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('MiniBrowser not found: install webkit2gtk-driver (Debian) or set PALKIT_MINIBROWSER');
  return found;
}

/**
 * MiniBrowser's arguments: mock camera and microphone, and (unless `gesture` is false) media that needs a
 * user gesture, as in Safari.
 */
export function miniBrowserArgs({ gesture = true } = {}) {
  // No prompt before the mock devices are handed out: a click that opens one would wait for it.
  return [
    '--automation',
    '--enable-media-stream=true',
    '--enable-mock-capture-devices=true',
    '--features=-MockCaptureDevicesPrompt',
    `--media-playback-requires-user-gesture=${gesture}`,
    ...(gesture ? [] : ['--autoplay-policy=allow']),
  ];
}

export async function freePort() {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = s.address().port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A PulseAudio daemon with a null sink, so that headless Firefox has an audio output and its AudioContext
 * runs: this test process's own (its own socket in a folder of its own, ended with the process), handed to
 * every browser it starts through PULSE_SERVER. Never the user's shared daemon: Firefox's first
 * `new AudioContext()` in a page waits, on the page's main thread, for the sound server to answer, so a
 * shared daemon that stops answering (another run's, started by a session that is paused or ending) froze
 * the page, and every puppeteer call into it failed with "script.callFunction timed out" (reproduced here
 * with a daemon stopped by SIGSTOP). Once per process.
 */
let pulseServer = null;
export function ensurePulseAudio() {
  if (pulseServer) return pulseServer;
  if (!existsSync('/usr/bin/pulseaudio') || !existsSync('/usr/bin/pactl')) {
    console.warn('palkit tests: pulseaudio is not installed; Firefox will have no audio output (AudioContext stays suspended)');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'palkit-pulse-'));
  const server = `unix:${join(dir, 'native')}`;
  const child = spawn(
    'pulseaudio',
    [
      '-n',
      '--daemonize=no',
      '--exit-idle-time=-1',
      '--use-pid-file=no',
      '--disallow-exit',
      '--log-target=stderr',
      `--load=module-native-protocol-unix socket=${join(dir, 'native')} auth-anonymous=1`,
      '--load=module-null-sink sink_name=palkit_null',
    ],
    {
      env: { ...process.env, XDG_RUNTIME_DIR: dir, PULSE_RUNTIME_PATH: dir, PULSE_STATE_PATH: dir, HOME: dir },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let output = '';
  child.stderr.on('data', (d) => (output = (output + d).slice(-4000)));
  let exited = false;
  child.on('exit', () => (exited = true));
  process.once('exit', () => {
    if (!exited) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  // Synchronous, as the launchers call it: up to 30 s for the daemon to answer on a busy machine.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; ; i++) {
    try {
      execFileSync('pactl', ['-s', server, 'info'], { stdio: 'ignore', timeout: 5000 });
      break;
    } catch {
      if (exited || i >= 300) {
        console.warn(`palkit tests: could not start a PulseAudio daemon of our own; Firefox will have no audio output\n${output}`);
        if (!exited) child.kill('SIGKILL');
        return null;
      }
      Atomics.wait(pause, 0, 0, 100);
    }
  }
  child.unref();
  child.stderr.unref?.();
  process.env.PULSE_SERVER = server;
  pulseServer = server;
  return server;
}

/** An X display for MiniBrowser: $DISPLAY when set (and PALKIT_XVFB is not 1), else an Xvfb of our own. */
export async function startDisplay() {
  if (process.env.DISPLAY && process.env.PALKIT_XVFB !== '1') return { display: process.env.DISPLAY, async close() {} };
  for (let n = 90 + Math.floor(Math.random() * 300), tries = 0; tries < 20; n++, tries++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
    const child = spawn('Xvfb', [`:${n}`, '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    let exited = false;
    child.on('exit', () => (exited = true));
    process.once('exit', () => exited || child.kill('SIGTERM'));
    for (let i = 0; i < 50 && !exited && !existsSync(`/tmp/.X11-unix/X${n}`); i++) await sleep(100);
    if (exited) continue;
    return {
      display: `:${n}`,
      async close() {
        if (exited) return;
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, sleep(3000)]);
      },
    };
  }
  throw new Error('could not start Xvfb (is the xvfb package installed?)');
}

/**
 * WebKitWebDriver on a free port, its MiniBrowsers on `display`. With `reducedMotion`, GTK's animations are
 * off (WebKitGTK answers `prefers-reduced-motion: reduce` then), through a settings.ini of its own.
 */
export async function startWebKitDriver({ display, reducedMotion = false }) {
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), 'palkit-webkit-'));
  mkdirSync(join(home, 'gtk-3.0'), { recursive: true });
  writeFileSync(join(home, 'gtk-3.0', 'settings.ini'), `[Settings]\ngtk-enable-animations=${reducedMotion ? 'false' : 'true'}\n`);
  // MiniBrowser's toolbar would hold its window at least 447 px wide: shrunk to nothing, a window can be a
  // 320–390 px phone. (Web content is not styled by GTK's CSS.)
  writeFileSync(
    join(home, 'gtk-3.0', 'gtk.css'),
    `window > box > *:not(:last-child), headerbar, toolbar, toolbar *, headerbar *, entry, button {
  font-size: 1px; min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0;
}\n`,
  );
  let output = '';
  const child = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
    env: {
      ...process.env,
      DISPLAY: display,
      XDG_CONFIG_HOME: home,
      WEBKIT_DISABLE_COMPOSITING_MODE: '1',
      GTK_A11Y: 'none',
      NO_AT_BRIDGE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output = (output + d).slice(-20000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-20000)));
  let exited = false;
  child.on('exit', () => (exited = true));
  // The driver ends its MiniBrowser when it stops; neither outlives the test process.
  process.once('exit', () => exited || child.kill('SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`WebKitWebDriver exited: ${output}`);
    try {
      const r = await fetch(`${url}/status`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (i > 100) throw new Error(`WebKitWebDriver did not answer on ${url}: ${output}`);
    await sleep(100);
  }
  return {
    url,
    output: () => output,
    async close() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, sleep(3000)]);
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * The internet, as far as MiniBrowser can tell in a test: an HTTP proxy on loopback that answers every
 * request for another host with a small stand-in (HTTPS too, through a self-signed certificate that
 * MiniBrowser is told to accept). Without it a third-party iframe (a Calendly card) never fires `load` in
 * WebKit when the machine has no network, and axe waits a minute on it; Chromium and Firefox show an error
 * page at once. `respond(url, req, res)` may answer a request itself (and return true).
 */
export async function startStandInProxy(respond = () => false) {
  const dir = mkdtempSync(join(tmpdir(), 'palkit-standin-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=palkit stand-in',
      '-days',
      '2',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  rmSync(dir, { recursive: true, force: true });
  const requests = [];
  const answer = (url, req, res) => {
    requests.push(url.href);
    if (respond(url, req, res)) return;
    const script = /\.m?js$/.test(url.pathname);
    res.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(
      script
        ? '/* stand-in: no network in tests */'
        : `<!doctype html><title>Stand-in</title><p>Stand-in for ${url.host} (no network in tests)</p>`,
    );
  };
  const tls = createHttpsServer({ key, cert }, (req, res) => answer(new URL(req.url, `https://${req.headers.host}`), req, res));
  const proxy = createHttpServer((req, res) => answer(new URL(req.url), req, res));
  // Every socket a browser opened, tunnels included, so that close() ends them all: a tunnel leaves the HTTP
  // server's keeping once CONNECT is answered, and the TLS server keeps it only once its handshake is done.
  // WebKit sometimes opens a tunnel and never begins TLS in it (a speculative connection, or a frame gone
  // before its request): close() then waited out the TLS server's 120 s handshake timeout, and the browser
  // suite's WebKit run with it (126 s in CI for 54 s of tests).
  const sockets = new Set();
  proxy.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  proxy.on('connect', (req, socket, head) => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    tls.emit('connection', socket);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${proxy.address().port}`;
  return {
    url,
    requests,
    /** MiniBrowser's arguments: every host but this machine's through the proxy, its certificate accepted. */
    args: [`--proxy=${url}`, '--ignore-host=127.0.0.1', '--ignore-host=localhost', '--ignore-host=::1', '--ignore-tls-errors'],
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([new Promise((r) => proxy.close(r)), new Promise((r) => tls.close(r))]);
    },
  };
}

/** A W3C WebDriver error, with the command that caused it. */
export class WebDriverError extends Error {
  constructor(command, value) {
    super(`${command}: ${value.error}: ${value.message}`);
    this.error = value.error;
  }
}

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** The key names of @web/test-runner-commands' sendKeys and Playwright's press, as WebDriver key values. */
const KEYS = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Escape: '\uE00C',
  ' ': ' ',
  Space: ' ',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  End: '\uE010',
  Home: '\uE011',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Delete: '\uE017',
  Meta: '\uE03D',
};

/** `Shift+Tab` → key actions pressing Shift, then Tab, releasing both in reverse. */
export function keyActions(combo) {
  const parts = combo === '+' ? ['+'] : combo.split('+');
  const values = parts.map((p) => KEYS[p] ?? (p.length === 1 ? p : null));
  if (values.some((v) => v === null)) throw new Error(`unknown key ${combo}`);
  return [...values.map((value) => ({ type: 'keyDown', value })), ...values.reverse().map((value) => ({ type: 'keyUp', value }))];
}

/** One WebDriver session (one MiniBrowser), through the W3C protocol's HTTP commands. */
export class WebDriverSession {
  /** `newSessionTimeoutMs`: how long the browser may take to come up (default: the command timeout). */
  static async create(driverUrl, capabilities, { commandTimeoutMs = 90_000, newSessionTimeoutMs = commandTimeoutMs } = {}) {
    const r = await fetch(`${driverUrl}/session`, {
      signal: AbortSignal.timeout(newSessionTimeoutMs),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ capabilities }),
    });
    const body = await r.json();
    if (!r.ok || body.value?.error) throw new WebDriverError('new session', body.value ?? {});
    const session = new WebDriverSession(driverUrl, body.value.sessionId);
    session.commandTimeoutMs = commandTimeoutMs;
    return session;
  }

  /**
   * A MiniBrowser session: mock capture devices, media after a gesture (unless `gesture` is false), other
   * hosts through a stand-in proxy's `args` when given.
   */
  static webkit(driverUrl, { gesture = true, proxyArgs = [], commandTimeoutMs, newSessionTimeoutMs } = {}) {
    return WebDriverSession.create(
      driverUrl,
      {
        alwaysMatch: {
          browserName: 'MiniBrowser',
          pageLoadStrategy: 'normal',
          acceptInsecureCerts: proxyArgs.length > 0,
          'webkitgtk:browserOptions': { binary: miniBrowserPath(), args: [...miniBrowserArgs({ gesture }), ...proxyArgs] },
        },
      },
      { commandTimeoutMs, newSessionTimeoutMs },
    );
  }

  constructor(driverUrl, id) {
    this.base = `${driverUrl}/session/${id}`;
    this.id = id;
    this.chrome = null;
    this.commandTimeoutMs = 90_000;
    /** A command of this session never answered: the browser is stuck, and closing it waits for nothing. */
    this.stuck = false;
  }

  async command(method, path, body) {
    const started = Date.now();
    if (process.env.PALKIT_WEBDRIVER_DEBUG) console.error(`[webdriver] ${method} ${path} ${JSON.stringify(body ?? '').slice(0, 120)}`);
    const r = await fetch(this.base + path, {
      // No WebDriver command takes this long unless the browser is stuck: fail the test rather than wait.
      signal: AbortSignal.timeout(this.commandTimeoutMs),
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((error) => {
      if (error?.name === 'TimeoutError') this.stuck = true;
      throw error;
    });
    const text = await r.text();
    if (process.env.PALKIT_WEBDRIVER_DEBUG) console.error(`[webdriver]   ${r.status} in ${Date.now() - started} ms ${text.slice(0, 160)}`);
    const parsed = text ? JSON.parse(text) : {};
    if (!r.ok || parsed.value?.error)
      throw new WebDriverError(`${method} ${path}`, parsed.value ?? { error: String(r.status), message: text });
    return parsed.value;
  }

  goto(url) {
    return this.command('POST', '/url', { url });
  }

  url() {
    return this.command('GET', '/url');
  }

  /** Runs `script` (a function body; `arguments` holds `args`) and returns its JSON-able result. */
  execute(script, args = []) {
    return this.command('POST', '/execute/sync', { script, args });
  }

  /** Runs an async function body and returns what it resolves to. */
  executeAsync(body, args = []) {
    return this.command('POST', '/execute/async', {
      script: `const done = arguments[arguments.length - 1];
        (async (...args) => { ${body} })(...Array.prototype.slice.call(arguments, 0, -1))
          .then((value) => done({ ok: true, value }), (error) => done({ ok: false, error: String(error && error.stack || error) }));`,
      args,
    }).then((r) => {
      if (!r.ok) throw new Error(`in WebKit: ${r.error}`);
      return r.value;
    });
  }

  /**
   * Sets the page's viewport (inner size) by sizing the window around it. (A window caught resizing can read
   * an inner size larger than its rect: the border is never taken as negative, which WebKitWebDriver refused
   * with "Invalid width value" once in a CI run.)
   */
  async setViewport({ width, height }) {
    if (!this.chrome) {
      const rect = await this.command('GET', '/window/rect');
      const inner = await this.execute('return [window.innerWidth, window.innerHeight]');
      this.chrome = chromeOf(rect.width - inner[0], rect.height - inner[1]);
    }
    await this.command('POST', '/window/rect', { x: 0, y: 0, width: width + this.chrome.width, height: height + this.chrome.height });
    // The window manager-less display may clamp the window: measure again and correct once.
    const inner = await this.execute('return [window.innerWidth, window.innerHeight]');
    if (inner[0] !== width || inner[1] !== height) {
      this.chrome = chromeOf(this.chrome.width + (width - inner[0]), this.chrome.height + (height - inner[1]));
      await this.command('POST', '/window/rect', { x: 0, y: 0, width: width + this.chrome.width, height: height + this.chrome.height });
    }
  }

  /** Presses a key or a combination (`Shift+Tab`) on the focused element. */
  press(combo) {
    return this.command('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions: keyActions(combo) }] }).then(() =>
      this.command('DELETE', '/actions'),
    );
  }

  /** Types text, one key after another, into the focused element. */
  type(text) {
    const actions = [...text].flatMap((ch) => [
      { type: 'keyDown', value: ch },
      { type: 'keyUp', value: ch },
    ]);
    return this.command('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }

  keyDown(key) {
    return this.command('POST', '/actions', {
      actions: [{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value: KEYS[key] ?? key }] }],
    });
  }

  keyUp(key) {
    return this.command('POST', '/actions', {
      actions: [{ type: 'key', id: 'keyboard', actions: [{ type: 'keyUp', value: KEYS[key] ?? key }] }],
    });
  }

  /** A real click (a user gesture) on an element reference that a script returned. */
  click(element) {
    return this.command('POST', `/element/${element[ELEMENT]}/click`, {});
  }

  /** A tap: a touch pointer down and up at the element's centre. */
  async tap(element) {
    await this.command('POST', '/actions', {
      actions: [
        {
          type: 'pointer',
          id: 'finger',
          parameters: { pointerType: 'touch' },
          actions: [
            { type: 'pointerMove', duration: 0, origin: element, x: 0, y: 0 },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
  }

  clear(element) {
    return this.command('POST', `/element/${element[ELEMENT]}/clear`, {});
  }

  sendKeysTo(element, text) {
    return this.command('POST', `/element/${element[ELEMENT]}/value`, { text });
  }

  async close() {
    // A stuck MiniBrowser never answers DELETE either: its driver is ended instead (by the caller).
    if (this.stuck) return;
    await this.command('DELETE', '').catch(() => undefined);
  }
}

export const WEBDRIVER_ELEMENT = ELEMENT;

/** The window's border around the viewport, never negative (see setViewport). */
function chromeOf(width, height) {
  return { width: Math.max(0, width), height: Math.max(0, height) };
}
