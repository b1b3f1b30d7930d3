// The end of a conversation, local or Daily: mark it ended in the database (exactly once, whoever gets
// there first: resources/conversations/end-conversation.ts), then send `system.shutdown` and
// `application.transcription_ready` (exactly once, by whichever instance finalizes it).
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../platform/context.js';
import { endConversation } from '../../resources/conversations/end-conversation.js';
import { emitConversationCallbacks } from '../../resources/conversations/events-store.js';
import { enqueuePerception } from '../perception/perception.js';
import { enqueuePostCallActions } from '../../resources/conversations/post-call.js';
import { keepLeftRecordings } from '../recording/store.js';
import { shutdownCallbacks } from '../../resources/conversations/callbacks.js';
import { loadTranscript } from '../../resources/conversations/transcript-store.js';
import { loadTurnLatencies, summarizeTurnLatencies } from '../../resources/conversations/turn-latency.js';

/**
 * Marks the conversation ended with `reason` unless it already was; returns the reason in effect. The
 * end itself is resources/conversations/end-conversation.ts's one conditional UPDATE, the same for every way a
 * conversation ends (the end endpoint, a room's limits, Daily's deadlines and webhooks, a refused handoff).
 */
export async function markConversationEnded(deps: ServiceDeps, conversationId: string, reason: string): Promise<string> {
  if (await endConversation(deps, conversationId, reason)) return reason;
  const current = await deps.db
    .selectFrom('conversations')
    .select('shutdown_reason')
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  return current?.shutdown_reason ?? reason;
}

/** Sends the end callbacks of an ended conversation unless some instance already did; returns the reason used. */
export async function finalizeConversation(
  deps: ServiceDeps,
  conversationId: string,
  fallbackReason: string = ShutdownReasons.endEndpointHit,
): Promise<string | null> {
  const row = await deps.db
    .updateTable('conversations')
    .set({ live_finalized_at: deps.clock.now() })
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'ended')
    .where('live_finalized_at', 'is', null)
    .returning(['owner_id', 'callback_url', 'face_id', 'pal_id', 'shutdown_reason', 'provider'])
    .executeTakeFirst();
  if (!row) return null;
  // The PAL read once for its face, its post-call actions and whether it perceives.
  const pal = row.pal_id
    ? await deps.db
        .selectFrom('pals')
        .select(['default_face_id', 'definition', 'pipeline_mode'])
        .where('pal_id', '=', row.pal_id)
        .executeTakeFirst()
    : undefined;
  const faceId = row.face_id ?? pal?.default_face_id ?? null;
  const reason = row.shutdown_reason ?? fallbackReason;
  const transcript = await loadTranscript(deps.db, conversationId);
  try {
    await emitConversationCallbacks(
      deps,
      { conversation_id: conversationId, owner_id: row.owner_id, callback_url: row.callback_url },
      shutdownCallbacks(
        conversationId,
        faceId,
        reason,
        transcript,
        deps.clock.now(),
        summarizeTurnLatencies(await loadTurnLatencies(deps.db, conversationId)),
      ),
    );
  } catch (error) {
    // Give the claim back so that the next sweep (here or on another instance) sends them.
    await deps.db
      .updateTable('conversations')
      .set({ live_finalized_at: null })
      .where('conversation_id', '=', conversationId)
      .execute()
      .catch(() => undefined);
    throw error;
  }
  await enqueuePostCallActions(deps, conversationId, pal);
  // A room that died mid-call left its recording open: keep what it wrote.
  if (row.provider === 'local') {
    await keepLeftRecordings(deps, conversationId).catch((error: unknown) =>
      deps.log.error('keeping a left recording failed', {
        conversation_id: conversationId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }
  // Only local rooms sample the camera (a PAL runner in a Daily room perceives on its own).
  if (row.provider === 'local') await enqueuePerception(deps, conversationId, pal);
  return reason;
}
