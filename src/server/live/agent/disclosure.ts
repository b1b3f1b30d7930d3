// The AI disclosure rules: `always` delivers it, `auto` (the default) only when the conversation's
// policy is `eu`, `off` never. Empty texts fall back to built-in sentences in the conversation's
// default language (its first), as does the greeting when neither conversation nor PAL sets one. A
// recorded call adds "this call is recorded" (and announces it even when the AI disclosure is off).
import type { LiveConversation } from '../../resources/conversations/live-conversation.js';
import { palLine, replyLanguage } from '../../resources/pals/lines/language.js';
import { recordingRequested } from '../recording/store.js';
import { withoutSpeechOffer } from './speech-offer.js';

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
  const lang = replyLanguage(conv);
  // A recorded call is always announced: with the AI disclosure when it fires, on its own otherwise.
  const recorded = recordingRequested(conv.properties) ? palLine(lang, 'recordingNotice') : null;
  if (!fires) return recorded ? { verbal: recorded, visual: recorded } : null;
  const verbal = text(conv.pal.definition.verbal_disclosure) ?? palLine(lang, 'verbalDisclosure');
  const visual = text(conv.pal.definition.visual_disclosure) ?? palLine(lang, 'visualDisclosure');
  return recorded ? { verbal: `${verbal} ${recorded}`, visual: `${visual} ${recorded}` } : { verbal, visual };
}

/** The PAL's first line; where it cannot hear the visitor, an invitation to say something asks them to type it. */
export function greetingFor(conv: LiveConversation, options: { hears?: boolean } = {}): string {
  const lang = replyLanguage(conv);
  const greeting =
    text(conv.customGreeting) ?? text(conv.pal.definition.custom_greeting) ?? palLine(lang, 'greeting', { name: conv.pal.name });
  return options.hears === false ? withoutSpeechOffer(greeting, lang) : greeting;
}
