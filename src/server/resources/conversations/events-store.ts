// Conversation callbacks: every payload is recorded for the verbose read and, when the conversation
// has a callback_url, delivered through the webhook mechanism.
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';

export interface ConversationCallback {
  conversation_id: string;
  event_type: string;
  message_type: 'system' | 'application' | 'canvas' | 'conversation';
  timestamp: string;
  properties: Record<string, unknown>;
  webhook_url?: string;
}

/** Records the payloads in order and, if `callbackUrl` is set, sends them (in the same order). */
export async function emitConversationCallbacks(
  deps: Pick<ServiceDeps, 'db' | 'webhooks'>,
  conversation: { conversation_id: string; owner_id: number; callback_url: string | null },
  payloads: ConversationCallback[],
): Promise<void> {
  if (payloads.length === 0) return;
  // Without a callback URL the events are one INSERT, atomic alone: no transaction (two statements fewer
  // for each of 10,000 conversations that expire together).
  if (!conversation.callback_url) return recordConversationCallbacks(deps, deps.db, conversation, payloads);
  await deps.db.transaction().execute((trx) => recordConversationCallbacks(deps, trx, conversation, payloads));
}

/** The same inside the caller's transaction (a state change and its callback commit together, or neither). */
export async function recordConversationCallbacks(
  deps: Pick<ServiceDeps, 'webhooks'>,
  trx: Db,
  conversation: { conversation_id: string; owner_id: number; callback_url: string | null },
  payloads: ConversationCallback[],
): Promise<void> {
  if (payloads.length === 0) return;
  const bodies = payloads.map((p) => ({ ...p, ...(conversation.callback_url ? { webhook_url: conversation.callback_url } : {}) }));
  await trx
    .insertInto('conversation_events')
    .values(bodies.map((b) => ({ conversation_id: conversation.conversation_id, event_type: b.event_type, payload: JSON.stringify(b) })))
    .execute();
  if (conversation.callback_url)
    await deps.webhooks.send({ ownerId: conversation.owner_id, url: conversation.callback_url, bodies, db: trx });
}

/** The recorded payloads, oldest first (the `events` of GET /v2/conversations/{id}?verbose=true). */
export async function listConversationEvents(db: Db, conversationId: string): Promise<Array<Record<string, unknown>>> {
  const rows = await db
    .selectFrom('conversation_events')
    .select('payload')
    .where('conversation_id', '=', conversationId)
    .orderBy('event_id')
    .execute();
  return rows.map((r) => r.payload);
}
