// The types of a string table, apart from strings.ts so the locale files can name them without importing
// the module that loads them (no import cycle between strings.ts and locales/).
import type { IncallStringKey } from './strings-incall.js';
import type { screenStrings } from './strings-screens.js';

export type StringKey = keyof typeof screenStrings | IncallStringKey;

export type StringTable = Partial<Record<StringKey, string>>;
/** A translation with every key (the locale files use it so a new English key cannot be forgotten). */
export type CompleteTable = Record<StringKey, string>;
