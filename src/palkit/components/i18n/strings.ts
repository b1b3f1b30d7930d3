// Every UI string of the elements, keyed, English first: the strings of the screens before a call (strings-screens.ts),
// the call's (strings-incall.ts) in a table of their own that joins this one when the call's parts are
// defined, so the script tag loads them with the call UI; every element looks strings up the same way. A
// language is chosen by the element's `lang` attribute, else the nearest ancestor's (across shadow roots),
// else the page's; `customization.strings[lang]` overrides single keys, and English fills gaps.
// Translations load on demand (one small chunk per language), so pages in English download none of them.
import { screenStrings } from './strings-screens.js';
import type { StringKey, StringTable } from './table.js';

export type { CompleteTable, StringKey, StringTable } from './table.js';

/** English. The call's strings are here once the call's parts are defined (addEnglish, from define-call.ts). */
export const en: typeof screenStrings & Partial<Record<StringKey, string>> = { ...screenStrings };

/** Adds English strings that arrive with code loaded later (the call's parts). */
export function addEnglish(table: Partial<Record<StringKey, string>>): void {
  Object.assign(en, table);
}

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
    pending = load()
      .then((table) => void (tables[short] = table))
      .finally(() => loading.delete(short));
    loading.set(short, pending);
  }
  return pending;
}

/** Translator for an element: when its language is still loading, it re-renders once the table is there. */
export function translatorFor(
  host: { requestUpdate(): void },
  lang: string,
  overrides?: Record<string, Record<string, string>>,
): Translate {
  if (!languageReady(lang))
    void loadLanguage(lang).then(
      () => host.requestUpdate(),
      () => undefined,
    );
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
  const layers = [pick(overrides, base), pick(overrides, short), pick(tables, base), pick(tables, short)].filter(
    (layer): layer is Record<string, string | undefined> => !!layer,
  );
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
