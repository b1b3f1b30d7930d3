// Every UI string of the elements, keyed, English first: the strings of the screens before a call below,
// the call's (strings-incall.ts) in a table of their own that joins this one when the call's parts are
// defined, so the script tag loads them with the call UI; every element looks strings up the same way. A
// language is chosen by the element's `lang` attribute, else the nearest ancestor's (across shadow roots),
// else the page's; `customization.strings[lang]` overrides single keys, and English fills gaps.
// Translations load on demand (one small chunk per language), so pages in English download none of them.
import type { IncallStringKey } from './strings-incall.js';

const screenStrings = {
  'launcher.label': 'Talk to us',
  'launcher.open': 'Open conversation',
  'popup.label': 'Conversation',
  'popup.close': 'Close',
  'popup.minimise': 'Minimise',
  'popup.live': 'Call in progress',
  'confirm.end.title': 'End the call?',
  'confirm.end.description': 'The conversation ends for you and the PAL.',
  'confirm.end.keep': 'Keep talking',
  'confirm.end.end': 'End call',
  'preview.title': 'Talk with us face to face',
  'preview.description': 'Start a video conversation. You can turn your camera off at any time.',
  'preview.start': 'Start conversation',
  'preview.start_text': 'Chat by text',
  'preview.consent.accept': 'I agree to these terms.',
  'preview.consent.terms': 'Read the terms',
  'preview.consent.required': 'Please accept the terms to start.',
  'preview.thumbnail': 'Preview of the conversation partner',
  'connecting.title': 'Connecting…',
  'connecting.description': 'Setting up your conversation.',
  'loading': 'Loading…',
  'haircheck.title': 'Check your camera and microphone',
  'haircheck.description': 'Make sure you can be seen and heard.',
  'haircheck.join': 'Join now',
  'haircheck.camera': 'Camera',
  'haircheck.microphone': 'Microphone',
  'haircheck.level': 'Microphone level',
  'haircheck.camera_off': 'Camera is off',
  'haircheck.no_access': 'Camera and microphone are not available. You can still join.',
  'haircheck.join_text': 'Continue by text',
  'haircheck.no_microphone': 'Your microphone isn\'t available. You can still talk with the PAL by text.',
  'gate.password.title': 'This conversation is protected',
  'gate.password.description': 'Enter the password you were given.',
  'gate.password.label': 'Password',
  'gate.password.submit': 'Continue',
  'gate.password.checking': 'Checking…',
  'gate.captcha.title': 'One quick check',
  'gate.captcha.description': 'Confirm you are a person to continue.',
  'gate.error.invalid_password': 'That password is not right. Please try again.',
  'gate.error.password_required': 'Please enter the password.',
  'gate.error.too_many_attempts': 'Too many attempts. Please wait a moment and try again.',
  'gate.error.captcha_failed': 'The check did not pass. Please try again.',
  'gate.error.captcha_required': 'Please complete the check.',
  'unavailable.title': 'Not available right now',
  'unavailable.inactive': 'This conversation is not open at the moment.',
  'unavailable.daily_limit': 'You have reached today’s limit of conversations. Please come back tomorrow.',
  'unavailable.total_limit': 'This conversation has reached its limit and is closed.',
  'unavailable.busy': 'All conversations are busy right now. Please try again in a few minutes.',
  'unavailable.captcha': 'The security check could not load. Check your connection or browser extensions and try again.',
  'retry': 'Try again',
  'error.title': 'Something went wrong',
  'error.network_error': 'We could not reach the service. Check your connection and try again.',
  'error.deployment_not_found': 'This conversation does not exist.',
  'error.origin_not_allowed': 'This conversation cannot be started from this website.',
  'error.join_failed': 'We could not connect you to the conversation.',
  'error.media_denied': 'Camera or microphone access was refused.',
  'error.generic': 'Please try again in a moment.',
  'error.misconfigured': 'This conversation is not set up correctly on this page.',
  'controls.camera_off': 'Turn camera off',
  'controls.camera_on': 'Turn camera on',
  'stage.self': 'Your camera',
  'landing.powered': 'Conversation',
} as const;

export type StringKey = keyof typeof screenStrings | IncallStringKey;

/** English. The call's strings are here once the call's parts are defined (addEnglish, from define-call.ts). */
export const en: typeof screenStrings & Partial<Record<StringKey, string>> = { ...screenStrings };

/** Adds English strings that arrive with code loaded later (the call's parts). */
export function addEnglish(table: Partial<Record<StringKey, string>>): void {
  Object.assign(en, table);
}

export type StringTable = Partial<Record<StringKey, string>>;
/** A translation with every key (the locale files use it so a new English key cannot be forgotten). */
export type CompleteTable = Record<StringKey, string>;

const tables: Record<string, StringTable> = { en };
const loaders: Record<string, () => Promise<StringTable>> = {
  de: () => import('./locales/de.js').then((m) => m.de),
  es: () => import('./locales/es.js').then((m) => m.es),
  fr: () => import('./locales/fr.js').then((m) => m.fr),
  ja: () => import('./locales/ja.js').then((m) => m.ja),
};
const loading = new Map<string, Promise<void>>();

/** Languages with a built-in table. */
export const languages = ['en', ...Object.keys(loaders)];

const shortOf = (lang: string): string => lang.toLowerCase().split('-')[0] ?? 'en';

/** Whether `lang` (or its base language) is ready to use, or has no built-in table (English is used). */
export function languageReady(lang: string): boolean {
  const short = shortOf(lang);
  return short in tables || !(short in loaders);
}

/** Loads the built-in table of `lang` (its base language: `de-AT` loads `de`). */
export function loadLanguage(lang: string): Promise<void> {
  const short = shortOf(lang);
  const load = loaders[short];
  if (short in tables || !load) return Promise.resolve();
  let pending = loading.get(short);
  if (!pending) {
    pending = load().then((table) => void (tables[short] = table)).finally(() => loading.delete(short));
    loading.set(short, pending);
  }
  return pending;
}

/** Translator for an element: when its language is still loading, it re-renders once the table is there. */
export function translatorFor(host: { requestUpdate(): void }, lang: string, overrides?: Record<string, Record<string, string>>): Translate {
  if (!languageReady(lang)) void loadLanguage(lang).then(() => host.requestUpdate(), () => undefined);
  return translator(lang, overrides);
}

export type Translate = (key: StringKey) => string;

/**
 * Translator for a language. Precedence per key: `overrides[lang-REGION]`, `overrides[lang]`, the built-in
 * table for `lang-REGION`, then `lang`, then English. `overrides` is `customization.strings`.
 */
export function translator(lang: string | undefined, overrides: Record<string, Record<string, string>> = {}): Translate {
  const base = (lang || 'en').toLowerCase();
  const short = base.split('-')[0] ?? 'en';
  const pick = (source: Record<string, Record<string, string> | StringTable>, key: string) =>
    Object.entries(source).find(([name]) => name.toLowerCase() === key)?.[1] as Record<string, string | undefined> | undefined;
  const layers = [pick(overrides, base), pick(overrides, short), pick(tables, base), pick(tables, short)]
    .filter((layer): layer is Record<string, string | undefined> => !!layer);
  return (key) => {
    for (const layer of layers) {
      const value = layer[key];
      if (typeof value === 'string' && value) return value;
    }
    return en[key] ?? '';
  };
}

/** The language an element speaks: its own `lang`, else the nearest ancestor's (across shadow roots), else the page's. */
export function languageOf(element: Element): string {
  // The element's own `lang` property first: Lit renders before it reflects a new value to the attribute.
  if (element instanceof HTMLElement && element.lang) return element.lang;
  let node: Node | null = element;
  while (node) {
    if (node instanceof Element) {
      const lang = node.getAttribute('lang');
      if (lang) return lang;
    }
    node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
  }
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'en';
}

/** `customization.strings`-style overrides with a single language-free table (a part's `strings` property). */
export function withStrings(t: Translate, strings: StringTable | null | undefined): Translate {
  return strings ? (key) => strings[key] || t(key) : t;
}

export const defaultTranslate: Translate = translator('en');
