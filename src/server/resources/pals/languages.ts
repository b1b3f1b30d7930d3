// Languages a PAL may run in: BCP-47 tags the local speech pipeline can voice and the PAL has its own
// lines in (greeting, disclosures, refusal, "not sure", small talk — live/agent/pal-lines.ts). A
// language the PAL cannot speak honestly is refused with a 400 that lists these, rather than accepted
// and greeted in English or met with silence. Matching ignores case and accepts `_` for `-`; the
// canonical spelling is stored.
import { primaryLanguage, spokenLanguages } from '../../live/agent/language.js';

const TAGS = [
  'cs', 'da', 'de', 'de-AT', 'de-CH', 'de-DE', 'en', 'en-AU', 'en-CA', 'en-GB', 'en-IE', 'en-IN', 'en-NZ', 'en-US', 'en-ZA',
  'es', 'es-419', 'es-AR', 'es-ES', 'es-MX', 'es-US', 'fi', 'fr', 'fr-BE', 'fr-CA', 'fr-CH', 'fr-FR', 'it', 'ja', 'ko', 'nb',
  'nl', 'nl-BE', 'no', 'pl', 'pt', 'pt-BR', 'pt-PT', 'ru', 'sv', 'tr', 'uk', 'zh', 'zh-CN',
] as const;

// Every tag must have the PAL's lines; checked once at load so a new tag cannot slip in without them.
for (const tag of TAGS) if (!spokenLanguages.includes(primaryLanguage(tag))) throw new Error(`language ${tag} has no PAL lines`);

const byKey = new Map<string, string>(TAGS.map((tag) => [tag.toLowerCase(), tag]));

export const supportedLanguages: readonly string[] = TAGS;

/** The canonical tag, or undefined when the language is not supported. */
export function canonicalLanguage(tag: string): string | undefined {
  return byKey.get(tag.trim().replace(/_/g, '-').toLowerCase());
}

/** The 400 message for a language the PAL cannot speak. */
export function unsupportedLanguageMessage(field: string, tag: string): string {
  return `invalid_request: ${field}: '${tag}' is not a supported language; supported: ${TAGS.join(', ')}`;
}
