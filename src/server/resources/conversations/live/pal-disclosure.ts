// The AI disclosure rules: `always` delivers it, `auto` (the default) only when the conversation's
// policy is `eu`, `off` never. Empty texts fall back to built-in sentences.
import type { LiveConversation } from './live-conversation.js';

export const BUILT_IN_VERBAL_DISCLOSURE = "Before we start: I'm an AI system, not a human.";
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
    verbal: text(conv.pal.definition.verbal_disclosure) ?? BUILT_IN_VERBAL_DISCLOSURE,
    visual: text(conv.pal.definition.visual_disclosure) ?? BUILT_IN_VISUAL_DISCLOSURE,
  };
}

export function greetingFor(conv: LiveConversation): string {
  return text(conv.customGreeting) ?? text(conv.pal.definition.custom_greeting) ?? `Hi, I'm ${conv.pal.name}. How can I help you today?`;
}
