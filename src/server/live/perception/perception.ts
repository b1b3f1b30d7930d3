// Perception in local rooms: when the PAL's perception layer names a model (`layers.perception.
// perception_model`, anything but "off") and a vision model is configured, the visitor's camera is sampled
// during the call (the elements post a frame every few seconds; a handful are kept, evenly spread). After
// the conversation ends a job asks the vision model to summarise what was seen, sends
// `application.perception_analysis` once, and deletes the frames.
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { emitConversationCallbacks } from '../../resources/conversations/events-store.js';
import { perceptionAnalysisCallback } from '../../resources/conversations/callbacks.js';
import { isRecord } from '../../resources/conversations/live-conversation.js';
import { describeFrames } from './vision.js';

export const PERCEPTION_JOB = 'conversations.perception_analysis';
/** How often the elements sample the camera, and how many frames a conversation keeps. */
export const FRAME_INTERVAL_MS = 5_000;
export const MAX_FRAMES = 8;

const INSTRUCTIONS =
  "These are frames from the visitor's camera during a video call with an AI agent, oldest first. " +
  'Summarise in a few sentences what is visible that matters for the conversation: the setting, objects or documents shown, ' +
  "the visitor's apparent engagement and mood. Do not guess identity, age or other sensitive traits.";
const NO_FRAMES = "No camera frames were received during the conversation (the visitor's camera was off or unavailable).";

/** The perception model the PAL names, or null when perception is off. */
export function perceptionModelOf(definition: Record<string, unknown>): string | null {
  const layers = definition.layers;
  const perception = isRecord(layers) && isRecord(layers.perception) ? layers.perception : null;
  const model = perception?.perception_model;
  return typeof model === 'string' && model.trim() && model.trim().toLowerCase() !== 'off' ? model.trim() : null;
}

/** Whether the room samples frames for this PAL (a model named and a vision endpoint to ask). */
export function perceives(deps: Pick<ServiceDeps, 'config'>, definition: Record<string, unknown>, pipelineMode: string): boolean {
  return pipelineMode !== 'echo' && Boolean(deps.config.vision.baseUrl) && perceptionModelOf(definition) !== null;
}

/** Keeps the frame; when more than MAX_FRAMES are kept, drops the inner one closest to its neighbours. */
export async function storeFrame(db: Db, conversationId: string, image: Uint8Array, at: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // One writer per conversation at a time, so two frames never both see room for themselves.
    await trx.selectFrom('conversations').select('conversation_id').where('conversation_id', '=', conversationId).forUpdate().execute();
    await trx.insertInto('conversation_frames').values({ conversation_id: conversationId, captured_at: at, image }).execute();
    const kept = await trx
      .selectFrom('conversation_frames')
      .select(['frame_id', 'captured_at'])
      .where('conversation_id', '=', conversationId)
      .orderBy('captured_at')
      .orderBy('frame_id')
      .execute();
    if (kept.length <= MAX_FRAMES) return;
    const t = kept.map((f) => new Date(f.captured_at).getTime());
    let drop = 1;
    for (let i = 2; i < kept.length - 1; i++) if (t[i + 1]! - t[i - 1]! < t[drop + 1]! - t[drop - 1]!) drop = i;
    await trx.deleteFrom('conversation_frames').where('frame_id', '=', kept[drop]!.frame_id).execute();
  });
}

/** After the end callbacks: the analysis job, when the PAL perceives. */
export async function enqueuePerception(
  deps: ServiceDeps,
  conversationId: string,
  pal: { definition: unknown; pipeline_mode: string } | undefined,
): Promise<void> {
  if (!pal || !perceives(deps, pal.definition as Record<string, unknown>, pal.pipeline_mode)) return;
  await deps.jobs.enqueue(PERCEPTION_JOB, { conversation_id: conversationId }, { maxAttempts: 3 });
}

export function perceptionJobs(deps: ServiceDeps): Record<string, JobHandler> {
  return {
    [PERCEPTION_JOB]: async ({
      payload,
      signal,
      attempt,
      maxAttempts,
    }: {
      payload: { conversation_id: string };
      signal: AbortSignal;
      attempt: number;
      maxAttempts: number;
    }) => {
      const conv = await deps.db
        .selectFrom('conversations')
        .select(['conversation_id', 'owner_id', 'callback_url'])
        .where('conversation_id', '=', payload.conversation_id)
        .executeTakeFirst();
      if (!conv) return;
      // A run that sent the callback but died before deleting the frames must not send it twice.
      const sent = await deps.db
        .selectFrom('conversation_events')
        .select('event_id')
        .where('conversation_id', '=', conv.conversation_id)
        .where('event_type', '=', 'application.perception_analysis')
        .executeTakeFirst();
      if (!sent) await analyse(deps, conv, signal, attempt, maxAttempts);
      await deps.db.deleteFrom('conversation_frames').where('conversation_id', '=', conv.conversation_id).execute();
    },
  };
}

type Conv = { conversation_id: string; owner_id: number; callback_url: string | null };

/** Asks the vision model about the kept frames and sends the analysis; throws to be retried until the last attempt. */
async function analyse(deps: ServiceDeps, conv: Conv, signal: AbortSignal, attempt: number, maxAttempts: number): Promise<void> {
  const frames = await deps.db
    .selectFrom('conversation_frames')
    .select('image')
    .where('conversation_id', '=', conv.conversation_id)
    .orderBy('captured_at')
    .orderBy('frame_id')
    .execute();
  let analysis: string;
  try {
    analysis = frames.length
      ? await describeFrames(
          deps,
          INSTRUCTIONS,
          frames.map((f) => f.image),
          signal,
        )
      : NO_FRAMES;
  } catch (error) {
    deps.log.error('perception analysis failed', {
      conversation_id: conv.conversation_id,
      attempt,
      error: error instanceof Error ? error.message : String(error),
    });
    if (attempt < maxAttempts) throw error;
    return; // given up: no analysis is sent, and the frames are deleted all the same
  }
  await emitConversationCallbacks(deps, conv, [perceptionAnalysisCallback(conv.conversation_id, analysis, deps.clock.now())]);
}
