// The guardrail callback: when a guardrail with a callback_url triggers in a conversation, its owner's
// receiver gets {conversation_id, properties: {guardrail, guardrail_uuid}} through the signed, retried
// webhook delivery.
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';

export interface TriggeredGuardrail {
  uuid: string;
  guardrail_name: string;
  callback_url: string | null;
}

/** Queues the callback; returns the delivery group id, or null when the guardrail has no callback_url. */
export async function notifyGuardrailTriggered(
  deps: Pick<ServiceDeps, 'webhooks'>,
  ownerId: number,
  conversationId: string,
  guardrail: TriggeredGuardrail,
  options: { db?: Db } = {},
): Promise<string | null> {
  if (!guardrail.callback_url) return null;
  return deps.webhooks.send({
    ownerId,
    url: guardrail.callback_url,
    eventType: 'guardrail.triggered',
    bodies: [{ conversation_id: conversationId, properties: { guardrail: guardrail.guardrail_name, guardrail_uuid: guardrail.uuid } }],
    ...(options.db ? { db: options.db } : {}),
  });
}
