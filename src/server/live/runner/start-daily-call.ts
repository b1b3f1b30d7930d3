// A Daily room just opened (createConversation calls this through resources/conversations/daily-call-start.ts):
// it ends at its deadlines whether or not a PAL joins (nothing else would end it), and gets its PAL from
// the runner the PAL picks (layers.daily.runner, else the service's default, resources/pals/daily-runner.ts):
// the customer's bot (PALKIT_PAL_RUNNER_URL: a refusal ends the conversation and throws
// PalUnavailableError) or palkit's own (live/runner/pages.ts: a full one throws RunnerBusyError before
// anything is scheduled, and the conversation is withdrawn). A runner the PAL picks that this service
// does not have (its settings changed since the PAL was saved) withdraws it too (PalRunnerMissingError).
import { PalRunnerMissingError, type DailyCallStart } from '../../resources/conversations/daily-call-start.js';
import { loadLiveConversation } from '../../resources/conversations/live-conversation.js';
import { dailyRunnerFor, dailyRunnerRefusal, pickedDailyRunner } from '../../resources/pals/daily-runner.js';
import { handOffToRunner } from './handoff.js';
import { RunnerPages, runnerPagesFor } from './pages.js';
import { scheduleDailyDeadlines, scheduleRunnerJoinDeadline } from '../conferencing/daily-deadlines.js';

export const startDailyCall: DailyCallStart = async (deps, call) => {
  const room = call.room.name === null ? null : { url: call.room.url, name: call.room.name };
  const layers = room ? (await loadLiveConversation(deps.db, call.conversationId))?.pal.definition.layers : undefined;
  const runner = dailyRunnerFor(deps.config, layers);
  const picked = pickedDailyRunner(layers);
  if (room && picked) {
    const why =
      dailyRunnerRefusal(deps.config, picked) ??
      (picked === 'palkit' && !RunnerPages.enabled(deps) ? "palkit's runner is not in this build" : null);
    if (why) throw new PalRunnerMissingError(`the PAL's layers.daily.runner is ${picked}, but ${why}`);
  }
  const own = room !== null && runner === 'palkit' && RunnerPages.enabled(deps);
  if (own) runnerPagesFor(deps).reserve(call.conversationId);
  await scheduleDailyDeadlines(deps, call.conversationId, call.properties, call.createdAt);
  if (!room) return;
  if (!own) return runner === 'handoff' ? handOffToRunner(deps, call.conversationId, room, call.expiresAt) : undefined;
  // Its page must be in the room within PALKIT_PAL_RUNNER_JOIN_SECONDS, as a customer's bot must.
  await scheduleRunnerJoinDeadline(deps, call.conversationId);
  await runnerPagesFor(deps).launch(call.conversationId, room, call.expiresAt);
};
