// A Daily room just opened (createConversation calls this through resources/conversations/daily-call.ts):
// it ends at its deadlines whether or not a PAL joins (nothing else would end it), and gets its PAL from
// the customer's runner (PALKIT_PAL_RUNNER_URL: a refusal ends the conversation and throws
// PalUnavailableError) or from palkit's own (live/runner/pages.ts: a full one throws RunnerBusyError
// before anything is scheduled, and the conversation is withdrawn).
import type { DailyCallStart } from '../../resources/conversations/daily-call.js';
import { handOffToRunner } from './handoff.js';
import { RunnerPages, runnerPagesFor } from './pages.js';
import { scheduleDailyDeadlines, scheduleRunnerJoinDeadline } from '../conferencing/daily-deadlines.js';

export const startDailyCall: DailyCallStart = async (deps, call) => {
  const own = call.room.name !== null && RunnerPages.enabled(deps);
  if (own) runnerPagesFor(deps).reserve(call.conversationId);
  await scheduleDailyDeadlines(deps, call.conversationId, call.properties, call.createdAt);
  if (!call.room.name) return;
  if (!own) return handOffToRunner(deps, call.conversationId, { url: call.room.url, name: call.room.name }, call.expiresAt);
  // Its page must be in the room within PALKIT_PAL_RUNNER_JOIN_SECONDS, as a customer's bot must.
  await scheduleRunnerJoinDeadline(deps, call.conversationId);
  await runnerPagesFor(deps).launch(call.conversationId, { url: call.room.url, name: call.room.name }, call.expiresAt);
};
