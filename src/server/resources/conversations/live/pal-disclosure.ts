// The AI disclosure rules: `always` delivers it, `auto` (the default) only when the conversation's
// policy is `eu`, `off` never. Empty texts fall back to built-in sentences in the conversation's
// default language (its first), as does the greeting when neither conversation nor PAL sets one.
import type { LiveConversation } from './live-conversation.js';
import { palLine, replyLanguage } from './pal-language.js';

/** The built-in sentences in English (other languages: `palLine(lang, 'verbalDisclosure')`). */
export const BUILT_IN_VERBAL_DISCLOSURE = palLine('en', 'verbalDisclosure');
export const BUILT_IN_VISUAL_DISCLOSURE = palLine('en', 'visualDisclosure');

export interface Disclosure {
  verbal: string;
  visual: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export function disclosureFor(conv: LiveConversation): Disclosure | null {
  const type = conv.pal.definition.disclosure_type ?? 'auto';
  const fires = type === 'always' || (type === 'auto' && conv.properties.policy === 'eu');
  if (!fires) return null;
  const lang = replyLanguage(conv);
  return {
    verbal: text(conv.pal.definition.verbal_disclosure) ?? palLine(lang, 'verbalDisclosure'),
    visual: text(conv.pal.definition.visual_disclosure) ?? palLine(lang, 'visualDisclosure'),
  };
}

export function greetingFor(conv: LiveConversation): string {
  return text(conv.customGreeting) ?? text(conv.pal.definition.custom_greeting) ?? palLine(replyLanguage(conv), 'greeting', { name: conv.pal.name });
}
