// Light shells for the script tag: they define pal-widget, pal-embed and pal-landing at once, paint the
// launcher or preview from the deployment's init (no framework, no validation), and host the full
// implementation once it has been fetched. Attributes, methods and parts pass through unchanged (their
// lists, surface.ts, are generated from the elements' manifest); events bubble out of the full element.
import type { Prefetched } from '../client/prefetched.js';
import { isOpenFlag } from '../components/shared/open-flag.js';
import { ATTRIBUTES, METHODS, PARTS, PART_SELECTOR } from './surface.js';

export interface FullModule {
  define(apiBase: string): void;
  /** Registers the in-call parts too (absent from a palkit-full.js older than this file). */
  defineParts?(): Promise<void>;
  implementations: Record<'pal-widget' | 'pal-embed' | 'pal-landing', string>;
}

type Tag = keyof FullModule['implementations'];
type Impl = HTMLElement & Record<string, unknown>;

type ShellMethod = (typeof METHODS)[number] | 'open';

interface InitLike {
  is_available?: boolean;
  thumbnail_image_url?: string;
  customization?: {
    accent_color?: string;
    widget?: { variant?: string; corner?: string; text?: string };
    preview?: { title?: string; description?: string; btn_title?: string };
  };
}

// A button clicked before the full code is here (seconds on a slow network) pulses, busy, until it arrives.
const CSS = `:host{display:block;font-family:system-ui,sans-serif}:host([data-tag=pal-widget]){display:contents}:host([data-tag=pal-embed]){width:100%;height:100%}
button{border:0;background:var(--pal-accent,#5b5bf0);color:#fff;font:600 15px system-ui,sans-serif;cursor:pointer}
.l{position:fixed;z-index:2147483000;bottom:20px;right:20px;height:56px;min-width:56px;padding:0 16px;border-radius:999px;box-shadow:0 8px 32px rgb(0 0 0/.18)}
.l.tiny{padding:0}.l.full{display:flex;align-items:center;gap:12px;height:auto;padding:8px 16px 8px 8px;border-radius:12px;background:#fff;color:#1a1a1f}.l img{width:64px;height:64px;border-radius:8px;object-fit:cover}.l.bottom-left{right:auto;left:20px}.l.top-right{bottom:auto;top:20px}.l.top-left{bottom:auto;top:20px;right:auto;left:20px}
.p{display:grid;place-content:center;gap:12px;text-align:center;height:100%;min-height:240px;padding:24px;box-sizing:border-box}
.p h2{margin:0}.p button{justify-self:center;min-height:44px;padding:0 20px;border-radius:8px}
[aria-busy]{animation:r .6s infinite alternate}@keyframes r{to{opacity:.6}}`;

let shellSheet: CSSStyleSheet | undefined;

/**
 * The shell's styles as a constructable stylesheet: a page whose Content-Security-Policy has no
 * 'unsafe-inline' for styles refuses an injected <style>. Browsers without them (Safari < 16.4) get one.
 */
function adoptShellStyles(root: ShadowRoot): void {
  if ('adoptedStyleSheets' in root && 'replaceSync' in CSSStyleSheet.prototype) {
    shellSheet ??= new CSSStyleSheet();
    if (!shellSheet.cssRules.length) shellSheet.replaceSync(CSS);
    root.adoptedStyleSheets = [shellSheet];
  } else {
    const style = document.createElement('style');
    style.textContent = CSS;
    root.append(style);
  }
}

/** What says a visitor is about to use the widget: its full code is fetched then, not on every page load. */
const INTENT = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

const safeColor = (value: string | undefined): string => (value && /^[#\w(),.%\s-]+$/.test(value) ? value : '');

export function defineShells(load: () => Promise<FullModule>, apiBase: string): void {
  let loading: Promise<FullModule> | null = null;
  const loadOnce = (): Promise<FullModule> => (loading ??= load().then((full) => (full.define(apiBase), full)));
  loadWhenPartsAppear(() => void loadOnce().then((full) => full.defineParts?.()));

  for (const tag of ['pal-widget', 'pal-embed', 'pal-landing'] as const) {
    if (customElements.get(tag)) continue;
    customElements.define(
      tag,
      class extends PalShell {
        static override tag: Tag = tag;
        static override load = loadOnce;
        static override apiBase = apiBase;
      },
    );
  }
}

/** Parts a page may use on their own (e.g. <pal-conversation> joined to a server-created conversation) are defined by the full bundle, fetched as soon as one appears. */
function loadWhenPartsAppear(loadParts: () => void): void {
  const selector = PART_SELECTOR;
  const found = (node: Node): boolean => node instanceof Element && (node.matches(selector) || node.querySelector(selector) !== null);
  const load = () => {
    observer.disconnect();
    loadParts();
  };
  // Only the added nodes are looked at, so a busy page pays little until a part shows up.
  const observer = new MutationObserver((records) => {
    if (records.some((r) => [...r.addedNodes].some(found))) load();
  });
  if (document.querySelector(selector)) return load();
  observer.observe(document, { childList: true, subtree: true });
}

abstract class PalShell extends HTMLElement {
  static tag: Tag;
  static load: () => Promise<FullModule>;
  static apiBase: string;
  static get observedAttributes(): string[] {
    return ATTRIBUTES;
  }

  #impl: Impl | null = null;
  #ready: Promise<Impl> | null = null;
  /** The init fetched for the placeholder, handed to the full element so it does not fetch it again. */
  #init: Prefetched | null = null;

  get #ctor(): typeof PalShell {
    return this.constructor as typeof PalShell;
  }

  connectedCallback(): void {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    this.dataset.tag = this.#ctor.tag;
    adoptShellStyles(root);
    this.addEventListener('pointerdown', this.#onPress);
    void this.#paint(root);
    // Embed and landing page show the conversation surface at once. The widget's launcher is painted here, and
    // its full code (91 KB) fetched when the visitor shows intent (the pointer over it, a touch, focus), is to
    // open (the method, the open attribute) or has a call to rejoin after a reload; never on load alone.
    if (this.#ctor.tag !== 'pal-widget' || this.hasAttribute('open') || this.#callToRejoin()) void this.#upgrade();
    else {
      const onIntent = () => {
        for (const type of INTENT) this.removeEventListener(type, onIntent);
        void this.#upgrade();
      };
      for (const type of INTENT) this.addEventListener(type, onIntent, { passive: true });
    }
  }

  /** This tab's call of this deployment, kept for a reload (client/live-call.ts): the full widget rejoins it. */
  #callToRejoin(): boolean {
    try {
      return sessionStorage.getItem(`palkit:live-call:${this.getAttribute('deployment-id')}`) !== null;
    } catch {
      return false;
    }
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    if (name === 'open' && value !== null && !this.#impl && this.shadowRoot) void this.#upgrade();
    if (!this.#impl) return;
    if (value === null) this.#impl.removeAttribute(name);
    else this.#impl.setAttribute(name, value);
  }

  get state(): string {
    return (this.#impl?.state as string | undefined) ?? 'idle';
  }

  get mode(): string {
    return (this.#impl?.mode as string | undefined) ?? 'idle';
  }

  /** Resolves with the full element once it has been fetched and rendered. */
  whenUpgraded(): Promise<Impl> {
    return this.#upgrade();
  }

  async #paint(root: ShadowRoot): Promise<void> {
    const id = this.getAttribute('deployment-id');
    let init: InitLike = {};
    try {
      const base = (this.getAttribute('api-base') || this.#ctor.apiBase || location.origin).replace(/\/+$/, '');
      if (id) {
        const url = `${base}/v2/deployments/${encodeURIComponent(id)}/init`;
        this.#init = { url, response: fetch(url, { credentials: 'omit' }) };
        const response = await this.#init.response;
        init = (await response.clone().json()) as InitLike;
        // A widget that cannot be talked to says so on its launcher at load: that is the full element's.
        if (!response.ok || init.is_available === false) void this.#upgrade();
      }
    } catch {
      // The full element reports failures; the placeholder stays plain.
      void this.#upgrade();
    }
    if (this.#impl) return;
    const c = init.customization ?? {};
    const accent = safeColor(c.accent_color);
    if (accent) this.style.setProperty('--pal-accent', accent);
    const placeholder = document.createElement(this.#ctor.tag === 'pal-widget' ? 'button' : 'div');
    if (this.#ctor.tag === 'pal-widget') {
      const variant = c.widget?.variant ?? 'compact';
      placeholder.className = `l ${variant} ${c.widget?.corner ?? 'bottom-right'}`;
      // The page's ::part(launcher) styles reach it as they reach the full launcher.
      placeholder.setAttribute('part', 'launcher');
      const face = variant === 'full' && init.thumbnail_image_url;
      if (face) placeholder.appendChild(Object.assign(document.createElement('img'), { src: face, alt: '' }));
      placeholder.append(variant === 'tiny' ? '💬' : c.widget?.text || 'Talk to us');
      placeholder.setAttribute('aria-label', c.widget?.text || 'Talk to us');
      placeholder.addEventListener('click', () => this.#call('open', []));
    } else {
      placeholder.className = 'p';
      const h = placeholder.appendChild(document.createElement('h2'));
      h.textContent = c.preview?.title || 'Talk with us face to face';
      const button = placeholder.appendChild(document.createElement('button'));
      button.textContent = c.preview?.btn_title || 'Start conversation';
      button.addEventListener('click', () => this.#call('startConversation', []));
    }
    root.append(placeholder);
  }

  #upgrade(): Promise<Impl> {
    this.#ready ??= this.#ctor.load().then(async (full) => {
      const impl = document.createElement(full.implementations[this.#ctor.tag]) as Impl;
      for (const name of ATTRIBUTES) {
        const value = this.getAttribute(name);
        if (value !== null) impl.setAttribute(name, value);
      }
      impl.setAttribute('exportparts', PARTS);
      impl.prefetchedInit = this.#init;
      // Not while the placeholder is pressed (a click would be lost between the two), and its focus moves on.
      await this.#released();
      const focused = this.shadowRoot!.activeElement !== null;
      this.#impl = impl;
      this.shadowRoot!.replaceChildren(impl);
      await (impl as unknown as { updateComplete?: Promise<unknown> }).updateComplete;
      if (focused && !impl.matches(':focus-within')) impl.shadowRoot?.querySelector<HTMLElement>('[part=launcher], button')?.focus();
      return impl;
    });
    return this.#ready;
  }

  /** While a pointer presses the placeholder: resolves once it has let go and the click has been dispatched. */
  #press: Promise<void> | null = null;

  #onPress = (): void => {
    this.#press ??= new Promise<void>((resolve) => {
      // Not at pointerup itself: the mouseup and click of the same input follow it in that task, and WebKit
      // drops a click whose target left the document (the launcher stayed shut). A task later, they are done.
      const up = () => {
        removeEventListener('pointerup', up, true);
        removeEventListener('pointercancel', up, true);
        setTimeout(() => {
          this.#press = null;
          resolve();
        });
      };
      addEventListener('pointerup', up, true);
      addEventListener('pointercancel', up, true);
    });
  };

  /** Resolves once no pointer presses the placeholder (at once when none does). */
  #released(): Promise<void> {
    return this.#press ?? Promise.resolve();
  }

  async #call(method: ShellMethod, args: unknown[]): Promise<unknown> {
    if (method === 'startConversation' || method === 'open') {
      unlockAudioNow();
      // Still the placeholder (the launcher or Start): busy until the full element replaces it.
      this.shadowRoot?.querySelector('button')?.setAttribute('aria-busy', 'true');
    }
    const impl = await this.#upgrade();
    return (impl[method] as (...a: unknown[]) => unknown).apply(impl, args);
  }

  // The full element's methods (startConversation, sendChat, …), each fetching it first and passing the arguments on.
  static {
    for (const method of METHODS)
      Object.defineProperty(this.prototype, method, {
        configurable: true,
        writable: true,
        value(this: PalShell, ...args: unknown[]) {
          return this.#call(method, args);
        },
      });
  }

  /** A method to call, like the full widget's; assigning it (Vue does for `<pal-widget open>`) sets the `open` attribute. */
  get open(): () => Promise<unknown> {
    return this.#open;
  }
  set open(value: unknown) {
    this.toggleAttribute('open', isOpenFlag(value));
  }
  readonly #open = (): Promise<unknown> => this.#call('open', []);
}

/** Inside the click that arrives before the full code: resume audio now, as Safari/iOS require. */
function unlockAudioNow(): void {
  try {
    void new AudioContext().resume();
  } catch {
    // No Web Audio.
  }
}
