// Languages a PAL may run in: BCP-47 tags the local speech pipeline and the model can both handle.
// Matching ignores case and accepts `_` for `-`; the canonical spelling is stored.
const SUPPORTED = [
  'af', 'ar', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'de-AT', 'de-CH', 'de-DE', 'el', 'en', 'en-AU', 'en-CA', 'en-GB',
  'en-IE', 'en-IN', 'en-NZ', 'en-US', 'en-ZA', 'es', 'es-419', 'es-AR', 'es-ES', 'es-MX', 'es-US', 'et', 'eu', 'fa', 'fi',
  'fil', 'fr', 'fr-BE', 'fr-CA', 'fr-CH', 'fr-FR', 'gl', 'he', 'hi', 'hr', 'hu', 'id', 'is', 'it', 'ja', 'ko', 'lt', 'lv',
  'ms', 'nb', 'nl', 'nl-BE', 'no', 'pl', 'pt', 'pt-BR', 'pt-PT', 'ro', 'ru', 'sk', 'sl', 'sr', 'sv', 'sw', 'ta', 'te', 'th',
  'tr', 'uk', 'ur', 'vi', 'yue', 'zh', 'zh-CN', 'zh-HK', 'zh-TW',
] as const;

const byKey = new Map<string, string>(SUPPORTED.map((tag) => [tag.toLowerCase(), tag]));

export const supportedLanguages: readonly string[] = SUPPORTED;

/** The canonical tag, or undefined when the language is not supported. */
export function canonicalLanguage(tag: string): string | undefined {
  return byKey.get(tag.trim().replace(/_/g, '-').toLowerCase());
}
