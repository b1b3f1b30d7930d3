// A Daily conversation's PAL joined: whoever first claims live_started_at (Daily's participant.joined
// webhook for the bot, palkit's runner reporting its page in the room, or the PAL's local room opening)
// sends system.pal_joined and its legacy duplicate; the others find it claimed and send nothing.
import type { ServiceDeps } from '../../platform/context.js';
import { palJoinedCallbacks } from './callbacks.js';
import { emitConversationCallbacks } from './events-store.js';

/** Claims the conversation's start; true (and the join callbacks sent) when this call claimed it. */
export async function claimPalJoined(deps: ServiceDeps, conversationId: string): Promise<boolean> {
  const now = deps.clock.now();
  const claimed = await deps.db
    .updateTable('conversations')
    .set({ live_started_at: now, updated_at: now })
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'active')
    .where('live_started_at', 'is', null)
    .returning(['conversation_id', 'owner_id', 'callback_url', 'face_id', 'pal_id'])
    .executeTakeFirst();
  if (!claimed) return false;
  const pal = await deps.db.selectFrom('pals').select('default_face_id').where('pal_id', '=', claimed.pal_id).executeTakeFirst();
  const faceId = claimed.face_id ?? pal?.default_face_id ?? null;
  await emitConversationCallbacks(deps, claimed, palJoinedCallbacks(conversationId, faceId, now));
  return true;
}
