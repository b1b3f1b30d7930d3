// The AI disclosure rules: `always` delivers it, `auto` (the default) only when the conversation's
// policy is `eu`, `off` never. Empty texts fall back to built-in sentences (the spoken one in the PAL's language).
import { conversationLanguage, type LiveConversation } from './live-conversation.js';
import { phrasesFor } from './pal-phrases.js';

/** The spoken disclosure when the PAL gives none (in English; other languages have their own, see pal-phrases.ts). */
export const BUILT_IN_VERBAL_DISCLOSURE = phrasesFor('en').disclosure;
export const BUILT_IN_VISUAL_DISCLOSURE = 'You are interacting with an AI system.';

export interface Disclosure {
  verbal: string;
  visual: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export function disclosureFor(conv: LiveConversation): Disclosure | null {
  const type = conv.pal.definition.disclosure_type ?? 'auto';
  const fires = type === 'always' || (type === 'auto' && conv.properties.policy === 'eu');
  if (!fires) return null;
  return {
    verbal: text(conv.pal.definition.verbal_disclosure) ?? phrasesFor(conversationLanguage(conv)).disclosure,
    visual: text(conv.pal.definition.visual_disclosure) ?? BUILT_IN_VISUAL_DISCLOSURE,
  };
}

export function greetingFor(conv: LiveConversation): string {
  return text(conv.customGreeting) ?? text(conv.pal.definition.custom_greeting) ?? phrasesFor(conversationLanguage(conv)).greeting(conv.pal.name);
}
