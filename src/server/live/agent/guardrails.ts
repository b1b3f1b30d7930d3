// The local PAL's guardrails: the PAL's references (ids, tags, a deprecated set) resolved when the room
// opens, and each visitor turn checked against the verbal ones. The local check reads the rule's topic
// from its wording ("Never discuss pricing", "Do not talk about competitors", "Avoid medical advice")
// and triggers when the turn mentions it; a triggered rule is answered with a refusal and its
// callback_url is called with the spec's body.
import type { ServiceDeps } from '../../platform/context.js';
import { guardrailsForConversation, type ResolvedGuardrail } from '../../resources/guardrails/resolve.js';
import { notifyGuardrailTriggered } from '../../resources/guardrails/trigger.js';
import type { LiveConversation } from '../../resources/conversations/live-conversation.js';
import { palLine, replyLanguage } from '../../resources/pals/lines/language.js';

/** What the PAL says when a turn touches a guardrail, in the language the visitor used (of the conversation's). */
export function refusalLine(conv: LiveConversation, userText: string): string {
  return palLine(replyLanguage(conv, userText), 'refusal');
}

const TOPIC =
  /\b(?:never|don'?t|do not|must not|should not|shouldn'?t|avoid|refuse to|no)\b\s+(?:ever\s+)?(?:discuss(?:ing)?|talk(?:ing)? about|mention(?:ing)?|give|giving|provide|providing|share|sharing|quote|quoting|offer|offering|answer questions about|comment on)?\s*(.+)/i;
const FILLER = new Set([
  'a',
  'an',
  'the',
  'any',
  'about',
  'of',
  'or',
  'and',
  'to',
  'with',
  'for',
  'in',
  'on',
  'our',
  'your',
  'their',
  'its',
  'other',
  'questions',
  'advice',
  'information',
  'details',
]);

/** The words a rule is about ("Never discuss pricing or discounts" → pricing, discounts), stemmed lightly. */
export function ruleTopics(prompt: string): string[] {
  const topic = TOPIC.exec(prompt)?.[1] ?? '';
  return [
    ...new Set(
      words(topic)
        .filter((w) => w.length > 3 && !FILLER.has(w))
        .map(stem),
    ),
  ];
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function stem(word: string): string {
  return word.replace(/(ing|ies|es|s)$/, '');
}

export class GuardrailCheck {
  private constructor(
    private readonly deps: ServiceDeps,
    private readonly conv: LiveConversation,
    private readonly rules: Array<ResolvedGuardrail & { topics: string[] }>,
  ) {}

  static async load(deps: ServiceDeps, conv: LiveConversation): Promise<GuardrailCheck> {
    const d = conv.pal.definition;
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    // Never refuses: tags matching more than 50 keep the 50 chosen by guardrailsForConversation, and
    // references deleted since the PAL was saved are skipped (a refusal here meant no guardrails at all).
    const { guardrails: resolved, dropped } = await guardrailsForConversation(deps.db, conv.ownerId, {
      guardrail_ids: list(d.guardrail_ids),
      guardrail_tags: list(d.guardrail_tags),
      ...(typeof d.guardrails_id === 'string' ? { guardrails_id: d.guardrails_id } : {}),
    });
    if (dropped > 0) deps.log.info('guardrails over the limit of 50 left out', { conversation_id: conv.conversationId, dropped });
    const rules = resolved
      .filter((g) => g.modality === 'verbal')
      .map((g) => ({ ...g, topics: ruleTopics(g.guardrail_prompt) }))
      .filter((g) => g.topics.length > 0);
    return new GuardrailCheck(deps, conv, rules);
  }

  /** The first rule the visitor's turn touches, after its callback was queued; null when none does. */
  async check(text: string): Promise<ResolvedGuardrail | null> {
    const said = new Set(words(text).map(stem));
    const rule = this.rules.find((r) => r.topics.some((t) => said.has(t)));
    if (!rule) return null;
    await notifyGuardrailTriggered(this.deps, this.conv.ownerId, this.conv.conversationId, rule);
    return rule;
  }
}
