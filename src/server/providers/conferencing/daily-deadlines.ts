// The two waits of a Daily conversation that no webhook ends by itself: a PAL bot that accepted the
// handoff but never joins, and the last visitor leaving (participant_left_timeout). Each is a durable
// job due when the wait is over; when it runs it checks the room's state in the database, so a join or
// a rejoin in the meantime makes it a no-op, and it works on whichever instance claims it.
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../app/context.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { endConversation } from '../../resources/conversations/end.js';
import { finalizeConversation } from '../../live/room/end.js';
import { roomLimits } from '../../live/room/limits.js';

export const RUNNER_JOIN_DEADLINE_JOB = 'conversations.runner_join_deadline';
export const DAILY_LEFT_DEADLINE_JOB = 'conversations.daily_left_deadline';

interface Payload {
  conversation_id: string;
}

/** After an accepted handoff: the bot must join within `PALKIT_PAL_RUNNER_JOIN_SECONDS`. */
export async function scheduleRunnerJoinDeadline(deps: ServiceDeps, conversationId: string): Promise<void> {
  const runAt = new Date(deps.clock.now().getTime() + deps.config.palRunnerJoinSeconds * 1000);
  await deps.jobs.enqueue(RUNNER_JOIN_DEADLINE_JOB, { conversation_id: conversationId } satisfies Payload, { runAt, maxAttempts: 5 });
}

/** A visitor session joined the Daily room (redeliveries and rejoins of a session are one row). */
export async function visitorJoined(deps: ServiceDeps, conversationId: string, sessionId: string): Promise<void> {
  await deps.db
    .insertInto('daily_participants')
    .values({ conversation_id: conversationId, session_id: sessionId, left_at: null })
    .onConflict((oc) => oc.columns(['conversation_id', 'session_id']).doUpdateSet({ left_at: null }))
    .execute();
}

/** A visitor session left; when it was the last one in the room, participant_left_timeout starts now. */
export async function visitorLeft(deps: ServiceDeps, conversationId: string, sessionId: string, properties: Record<string, unknown>): Promise<void> {
  const now = deps.clock.now();
  // A leave that arrives before its join (webhooks are not ordered) still records the session as gone.
  await deps.db
    .insertInto('daily_participants')
    .values({ conversation_id: conversationId, session_id: sessionId, joined_at: now, left_at: now })
    .onConflict((oc) => oc.columns(['conversation_id', 'session_id']).doUpdateSet({ left_at: now }))
    .execute();
  const runAt = new Date(now.getTime() + roomLimits(properties).participantLeftTimeout * 1000);
  await deps.jobs.enqueue(DAILY_LEFT_DEADLINE_JOB, { conversation_id: conversationId } satisfies Payload, { runAt, maxAttempts: 5 });
}

async function end(deps: ServiceDeps, conversationId: string, reason: string): Promise<void> {
  if (await endConversation(deps, conversationId, reason)) {
    deps.log.info('Daily conversation ended', { conversation_id: conversationId, reason });
    await finalizeConversation(deps, conversationId, reason);
  }
}

/**
 * A Daily conversation ended before any meeting took place (neither the PAL's bot nor a visitor ever
 * joined): Daily sends no meeting.ended for a meeting that never was, so its end callbacks
 * (system.shutdown, transcription_ready with an empty transcript) are sent here. When a meeting did
 * take place, meeting.ended sends them once the runner has reported the transcript.
 */
export async function finalizeIfNoMeeting(deps: ServiceDeps, conversationId: string): Promise<void> {
  const conv = await deps.db.selectFrom('conversations').select(['status', 'live_started_at', 'live_finalized_at']).where('conversation_id', '=', conversationId).executeTakeFirst();
  if (conv?.status !== 'ended' || conv.live_started_at || conv.live_finalized_at) return;
  const joined = await deps.db.selectFrom('daily_participants').select('session_id').where('conversation_id', '=', conversationId).limit(1).executeTakeFirst();
  if (joined) return;
  await finalizeConversation(deps, conversationId);
}

export function dailyDeadlineJobs(deps: ServiceDeps): Record<string, JobHandler> {
  return {
    [RUNNER_JOIN_DEADLINE_JOB]: async ({ payload }: { payload: Payload }) => {
      const conv = await deps.db.selectFrom('conversations').select(['status', 'live_started_at']).where('conversation_id', '=', payload.conversation_id).executeTakeFirst();
      if (conv?.status !== 'active' || conv.live_started_at) return;
      await end(deps, payload.conversation_id, ShutdownReasons.botCouldNotJoin);
    },
    [DAILY_LEFT_DEADLINE_JOB]: async ({ payload }: { payload: Payload }) => {
      const conv = await deps.db.selectFrom('conversations').select(['status', 'properties']).where('conversation_id', '=', payload.conversation_id).executeTakeFirst();
      if (conv?.status !== 'active') return;
      const sessions = await deps.db.selectFrom('daily_participants').select(['left_at']).where('conversation_id', '=', payload.conversation_id).execute();
      if (sessions.length === 0 || sessions.some((s) => s.left_at === null)) return; // someone is (back) in the room
      const lastLeft = Math.max(...sessions.map((s) => new Date(s.left_at!).getTime()));
      const due = lastLeft + roomLimits(conv.properties as Record<string, unknown>).participantLeftTimeout * 1000;
      // A later leave scheduled its own job; this one is early for it.
      if (deps.clock.now().getTime() + 50 < due) return;
      await end(deps, payload.conversation_id, ShutdownReasons.participantLeftTimeout);
    },
  };
}
