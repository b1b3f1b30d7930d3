// eSpeak NG's voice for a PAL's language (a BCP-47 tag).
import type { VoiceChoice } from '../synthesizer.js';

// Where eSpeak's voice name is not the language's primary tag: Norwegian is Bokmål, Chinese is Mandarin.
const ESPEAK_NAMES: Record<string, string> = { en: 'en-us', no: 'nb', zh: 'cmn' };

// A region's own voice, where eSpeak has one (its `en` is British English, `pt` European Portuguese).
const REGIONAL: Record<string, string> = {
  'en-gb': 'en',
  'en-ie': 'en',
  'en-us': 'en-us',
  'pt-br': 'pt-br',
  'pt-pt': 'pt',
  'fr-be': 'fr-be',
  'fr-ch': 'fr-ch',
  'es-419': 'es-419',
  'es-mx': 'es-419',
  'es-us': 'es-419',
  'es-ar': 'es-419',
  'es-co': 'es-419',
  'es-cl': 'es-419',
  'es-pe': 'es-419',
};

/** eSpeak's voice for a language: its names are mostly the language codes (en, de, fr, es, it, pt, nl, ja…). */
export function espeakVoice(voice: Pick<VoiceChoice, 'language'>): string {
  const tag = voice.language.toLowerCase().replace(/_/g, '-');
  const regional =
    REGIONAL[
      tag
        .replace(/-(?:latn|hans)(?=-|$)/, '')
        .split('-')
        .slice(0, 2)
        .join('-')
    ];
  if (regional) return regional;
  const language = tag.split('-')[0] ?? 'en';
  if (!/^[a-z]{2,3}$/.test(language)) return 'en-us';
  return ESPEAK_NAMES[language] ?? language;
}
