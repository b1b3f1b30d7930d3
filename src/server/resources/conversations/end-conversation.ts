// Ending a conversation: one conditional UPDATE decides who ends it (so repeated or concurrent calls
// end it once), the provider's room is closed by a durable job, and the bus tells this instance's room.
import type { ServiceDeps } from '../../platform/context.js';
import type { ConversationRow } from './repository.js';

export const CLOSE_ROOM_JOB = 'conversations.close_room';

/** Marks an active conversation ended; returns the ended row, or null when it was not active. */
export async function endConversation(deps: ServiceDeps, conversationId: string, reason: string): Promise<ConversationRow | null> {
  const now = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: reason, ended_at: now, updated_at: now })
      .where('conversation_id', '=', conversationId)
      .where('status', '=', 'active')
      .returningAll()
      .executeTakeFirst();
    if (ended?.provider_room) {
      await deps.jobs.enqueue(
        CLOSE_ROOM_JOB,
        { conversation_id: ended.conversation_id, provider: ended.provider, room: ended.provider_room },
        { db: trx, maxAttempts: 8 },
      );
    }
    return ended ?? null;
  });
  if (row) deps.bus.emit('conversation.ended', { conversationId, reason });
  return row;
}
