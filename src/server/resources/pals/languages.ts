// Languages a PAL may run in: BCP-47 tags whose language the local speech pipeline can voice and the PAL
// has its own lines in (greeting, disclosures, refusal, "not sure", small talk — resources/pals/lines/pal-lines.ts).
// A tag is read as BCP 47 means it (Intl.Locale): `nb-NO`, `fr-CA`, `es-419` or `zh-Hans-CN` are accepted
// when their language is one of these, and served with that language's lines (and its region's voice
// where eSpeak has one). A tag whose script is not the one the lines are written in (`zh-TW` is
// Traditional Chinese; the lines are Simplified) is refused like a language the PAL cannot speak: with a
// 400 that lists the supported ones, rather than accepted and answered in the wrong words or silence.
// Matching accepts `_` for `-`; the canonical spelling (`nb-NO`, `zh-Hans`) is stored.
import { primaryLanguage, spokenLanguages } from './lines/language.js';

// Tags known to work end to end (lines and voice); listed in the 400 and checked by the tests.
const TAGS = [
  'cs',
  'da',
  'de',
  'de-AT',
  'de-CH',
  'de-DE',
  'en',
  'en-AU',
  'en-CA',
  'en-GB',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-US',
  'en-ZA',
  'es',
  'es-419',
  'es-AR',
  'es-ES',
  'es-MX',
  'es-US',
  'fi',
  'fr',
  'fr-BE',
  'fr-CA',
  'fr-CH',
  'fr-FR',
  'it',
  'it-IT',
  'ja',
  'ko',
  'nb',
  'nb-NO',
  'nl',
  'nl-BE',
  'no',
  'pl',
  'pt',
  'pt-BR',
  'pt-PT',
  'ru',
  'sv',
  'sv-SE',
  'tr',
  'uk',
  'zh',
  'zh-CN',
  'zh-Hans',
] as const;

// Every tag must have the PAL's lines; checked once at load so a new tag cannot slip in without them.
for (const tag of TAGS) if (!spokenLanguages.includes(primaryLanguage(tag))) throw new Error(`language ${tag} has no PAL lines`);

export const supportedLanguages: readonly string[] = TAGS;

/** The languages (primary subtags) the PAL speaks, for the 400's list. */
const PRIMARY = [...new Set(spokenLanguages)].sort();

/** The canonical tag, or undefined when the language (or its script) is not supported. */
export function canonicalLanguage(tag: string): string | undefined {
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag.trim().replace(/_/g, '-'));
  } catch {
    return undefined; // not a BCP-47 tag at all
  }
  if (!spokenLanguages.includes(locale.language)) return undefined;
  // The script the tag implies (zh-TW → Hant) must be the one the language's lines are written in.
  const written = new Intl.Locale(locale.language).maximize().script;
  if (locale.maximize().script !== written) return undefined;
  return locale.toString();
}

/** The 400 message for a language the PAL cannot speak. */
export function unsupportedLanguageMessage(field: string, tag: string): string {
  return `invalid_request: ${field}: '${tag}' is not a supported language; supported: ${PRIMARY.join(', ')}, each with any region (e.g. ${['de-CH', 'en-GB', 'fr-CA', 'nb-NO', 'pt-BR', 'es-419'].join(', ')})`;
}
