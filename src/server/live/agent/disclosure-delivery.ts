// The AI disclosure as the PAL's first words: `conversation.disclosure` says it is being delivered, the
// speaker says it (never cut off, ahead of anything said to the PAL meanwhile), and once it is heard it is
// marked delivered and its receipt stored (resources/conversations/receipts.ts): the proof the visitor was told.
import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '../../platform/context.js';
import type { LiveConversation } from '../../resources/conversations/live-conversation.js';
import { recordDisclosure } from '../../resources/conversations/receipts.js';
import type { Speaker } from '../speech/utterances.js';
import { once } from './answer.js';
import { disclosureFor } from './disclosure.js';

/** Queues the conversation's disclosure, when its rules want one (disclosure.ts), on `speaker`. */
export function deliverDisclosure(
  deps: ServiceDeps,
  conv: LiveConversation,
  speaker: Speaker,
  turnIdx: number,
  emit: (eventType: string, properties: Record<string, unknown>) => void,
): void {
  const disclosure = disclosureFor(conv);
  if (!disclosure) return;
  const properties = { visual_disclosure: disclosure.visual, verbal_disclosure: disclosure.verbal };
  emit('conversation.disclosure', { ...properties, state: 'delivering' });
  void speaker.say(once(disclosure.verbal), {
    inferenceId: randomUUID(),
    turnIdx,
    interruptible: false,
    after: () => {
      emit('conversation.disclosure', { ...properties, state: 'delivered' });
      void recordDisclosure(
        deps.db,
        conv.conversationId,
        { visual: disclosure.visual ?? null, verbal: disclosure.verbal ?? null },
        deps.clock.now(),
      ).catch((error) => deps.log.error('disclosure receipt not stored', { conversation_id: conv.conversationId, error }));
    },
  });
}
