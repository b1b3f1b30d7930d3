// The waits of a Daily conversation that no webhook ends by itself: its max_call_duration and, when
// nobody ever joins, its participant_absent_timeout (with or without a PAL bot: Daily sends nothing
// for a meeting that never was), a PAL bot that accepted the handoff but never joins, and the last
// visitor leaving (participant_left_timeout). Each is a durable job due when the wait is over; when it
// runs it checks the room's state in the database, so a join or a rejoin in the meantime makes it a
// no-op, and it works on whichever instance claims it. Ending marks the conversation ended (it stops
// counting against its deployment's limits) and closes the room; the end callbacks are sent once.
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { endConversation } from '../../resources/conversations/end-conversation.js';
import { finalizeConversation } from '../room/finalize.js';
import { roomLimits } from '../../resources/conversations/limits.js';

export const RUNNER_JOIN_DEADLINE_JOB = 'conversations.runner_join_deadline';
export const DAILY_LEFT_DEADLINE_JOB = 'conversations.daily_left_deadline';
export const DAILY_DURATION_DEADLINE_JOB = 'conversations.daily_duration_deadline';
export const DAILY_ABSENT_DEADLINE_JOB = 'conversations.daily_absent_deadline';
export const DAILY_FINALIZE_JOB = 'conversations.daily_finalize';

/**
 * How long after a Daily meeting is ended by a deadline its callbacks wait for meeting.ended (which
 * brings the transcript the runner reported) before they are sent without it.
 */
export const DAILY_FINALIZE_GRACE_SECONDS = 60;

interface Payload {
  conversation_id: string;
}

/**
 * When a Daily conversation is created: its max_call_duration and participant_absent_timeout, counted
 * from its creation as in local rooms. The absent timeout needs Daily's webhooks (without them the
 * service cannot know that a visitor joined, and only max_call_duration ends the call).
 */
export async function scheduleDailyDeadlines(
  deps: ServiceDeps,
  conversationId: string,
  properties: Record<string, unknown>,
  createdAt: Date,
): Promise<void> {
  const limits = roomLimits(properties);
  const at = (seconds: number) => new Date(createdAt.getTime() + seconds * 1000);
  const payload = { conversation_id: conversationId } satisfies Payload;
  await deps.jobs.enqueue(DAILY_DURATION_DEADLINE_JOB, payload, { runAt: at(limits.maxCallDuration), maxAttempts: 5 });
  if (deps.config.daily.webhookSecret && limits.participantAbsentTimeout < limits.maxCallDuration) {
    await deps.jobs.enqueue(DAILY_ABSENT_DEADLINE_JOB, payload, { runAt: at(limits.participantAbsentTimeout), maxAttempts: 5 });
  }
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
export async function visitorLeft(
  deps: ServiceDeps,
  conversationId: string,
  sessionId: string,
  properties: Record<string, unknown>,
): Promise<void> {
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

/** Whether anyone (the PAL's bot or a visitor) ever joined the conversation's Daily room. */
async function meetingTookPlace(deps: ServiceDeps, conversationId: string, liveStartedAt: Date | null): Promise<boolean> {
  if (liveStartedAt) return true;
  return Boolean(
    await deps.db
      .selectFrom('daily_participants')
      .select('session_id')
      .where('conversation_id', '=', conversationId)
      .limit(1)
      .executeTakeFirst(),
  );
}

/**
 * A deadline ends the conversation. Without a meeting its callbacks go now; after one, meeting.ended
 * sends them with the runner's transcript, or the finalize job does after a grace when it never comes.
 */
async function endAtDeadline(deps: ServiceDeps, conversationId: string, reason: string, liveStartedAt: Date | null): Promise<void> {
  if (!(await endConversation(deps, conversationId, reason))) return;
  deps.log.info('Daily conversation ended', { conversation_id: conversationId, reason });
  if (!(await meetingTookPlace(deps, conversationId, liveStartedAt))) {
    await finalizeConversation(deps, conversationId, reason);
    return;
  }
  const runAt = new Date(deps.clock.now().getTime() + DAILY_FINALIZE_GRACE_SECONDS * 1000);
  await deps.jobs.enqueue(DAILY_FINALIZE_JOB, { conversation_id: conversationId } satisfies Payload, { runAt, maxAttempts: 5 });
}

/**
 * A Daily conversation ended before any meeting took place (neither the PAL's bot nor a visitor ever
 * joined): Daily sends no meeting.ended for a meeting that never was, so its end callbacks
 * (system.shutdown, transcription_ready with an empty transcript) are sent here. When a meeting did
 * take place, meeting.ended sends them once the runner has reported the transcript.
 */
export async function finalizeIfNoMeeting(deps: ServiceDeps, conversationId: string): Promise<void> {
  const conv = await deps.db
    .selectFrom('conversations')
    .select(['status', 'live_started_at', 'live_finalized_at'])
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  if (conv?.status !== 'ended' || conv.live_started_at || conv.live_finalized_at) return;
  const joined = await deps.db
    .selectFrom('daily_participants')
    .select('session_id')
    .where('conversation_id', '=', conversationId)
    .limit(1)
    .executeTakeFirst();
  if (joined) return;
  await finalizeConversation(deps, conversationId);
}

export function dailyDeadlineJobs(deps: ServiceDeps): Record<string, JobHandler> {
  /** The conversation when it is still active and `limit` (seconds from its creation) has passed by the service's clock. */
  const dueAndActive = async (conversationId: string, limit: (l: ReturnType<typeof roomLimits>) => number) => {
    const conv = await deps.db
      .selectFrom('conversations')
      .select(['status', 'created_at', 'properties', 'live_started_at'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    if (conv?.status !== 'active') return null;
    const due = new Date(conv.created_at).getTime() + limit(roomLimits(conv.properties as Record<string, unknown>)) * 1000;
    return deps.clock.now().getTime() + 50 >= due ? conv : null;
  };
  return {
    [DAILY_DURATION_DEADLINE_JOB]: async ({ payload }: { payload: Payload }) => {
      const conv = await dueAndActive(payload.conversation_id, (l) => l.maxCallDuration);
      if (conv) await endAtDeadline(deps, payload.conversation_id, ShutdownReasons.maxCallDuration, conv.live_started_at);
    },
    [DAILY_ABSENT_DEADLINE_JOB]: async ({ payload }: { payload: Payload }) => {
      const conv = await dueAndActive(payload.conversation_id, (l) => l.participantAbsentTimeout);
      if (!conv) return;
      // A visitor joined (the bot alone is nobody to talk to).
      const joined = await deps.db
        .selectFrom('daily_participants')
        .select('session_id')
        .where('conversation_id', '=', payload.conversation_id)
        .limit(1)
        .executeTakeFirst();
      if (!joined) await endAtDeadline(deps, payload.conversation_id, ShutdownReasons.participantAbsentTimeout, conv.live_started_at);
    },
    [DAILY_FINALIZE_JOB]: async ({ payload }: { payload: Payload }) => {
      await finalizeConversation(deps, payload.conversation_id);
    },
    [RUNNER_JOIN_DEADLINE_JOB]: async ({ payload }: { payload: Payload }) => {
      const conv = await deps.db
        .selectFrom('conversations')
        .select(['status', 'live_started_at'])
        .where('conversation_id', '=', payload.conversation_id)
        .executeTakeFirst();
      if (conv?.status !== 'active' || conv.live_started_at) return;
      await end(deps, payload.conversation_id, ShutdownReasons.botCouldNotJoin);
    },
    [DAILY_LEFT_DEADLINE_JOB]: async ({ payload }: { payload: Payload }) => {
      const conv = await deps.db
        .selectFrom('conversations')
        .select(['status', 'properties'])
        .where('conversation_id', '=', payload.conversation_id)
        .executeTakeFirst();
      if (conv?.status !== 'active') return;
      const sessions = await deps.db
        .selectFrom('daily_participants')
        .select(['left_at'])
        .where('conversation_id', '=', payload.conversation_id)
        .execute();
      if (sessions.length === 0 || sessions.some((s) => s.left_at === null)) return; // someone is (back) in the room
      const lastLeft = Math.max(...sessions.map((s) => new Date(s.left_at!).getTime()));
      const due = lastLeft + roomLimits(conv.properties as Record<string, unknown>).participantLeftTimeout * 1000;
      // A later leave scheduled its own job; this one is early for it.
      if (deps.clock.now().getTime() + 50 < due) return;
      await end(deps, payload.conversation_id, ShutdownReasons.participantLeftTimeout);
    },
  };
}
