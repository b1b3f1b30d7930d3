// Recording a card's interactions with the service (`link.postCanvasInteraction`): the body, the same
// interaction_id for a retry, and the interactions nobody waits on (clear, error, dismiss) retried a few times.
import type { CanvasInteractionBody, ConversationLink } from '../../client/link.js';
import { canvasComponentId, canvasComponentVersion, newInteractionId, type CanvasInteractionType } from '../../../protocol/canvas.js';

const backgroundAttempts = 3;

export function interactionBody(
  toolCallId: string,
  component: string,
  type: CanvasInteractionType,
  value: Record<string, unknown>,
  metadata?: Record<string, unknown>,
): CanvasInteractionBody {
  return {
    interaction_id: newInteractionId(toolCallId, type),
    tool_call_id: toolCallId,
    component: canvasComponentId(component),
    component_version: canvasComponentVersion,
    type,
    value,
    metadata: { client: 'palkit', ...metadata },
  };
}

/** Whether the interaction was recorded (false without a link). */
export async function postInteraction(link: ConversationLink | null, body: CanvasInteractionBody): Promise<boolean> {
  if (!link) return false;
  try {
    await link.postCanvasInteraction(body);
    return true;
  } catch {
    return false;
  }
}

/** Records an interaction nobody waits on (clear, error, dismiss), retrying a few times with the link of the moment. */
export async function recordInBackground(link: () => ConversationLink | null, body: CanvasInteractionBody): Promise<void> {
  for (let attempt = 0; attempt < backgroundAttempts; attempt++) {
    if (await postInteraction(link(), body)) return;
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
}
