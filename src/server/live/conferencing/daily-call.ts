// A Daily room just opened (createConversation calls this through resources/conversations/daily-call.ts):
// it ends at its deadlines whether or not a PAL bot joins (nothing else would end it), and gets its PAL
// from the runner; a refusal ends the conversation and throws PalUnavailableError.
import type { DailyCallStart } from '../../resources/conversations/daily-call.js';
import { handOffToRunner } from '../runner/handoff.js';
import { scheduleDailyDeadlines } from './daily-deadlines.js';

export const startDailyCall: DailyCallStart = async (deps, call) => {
  await scheduleDailyDeadlines(deps, call.conversationId, call.properties, call.createdAt);
  if (call.room.name) await handOffToRunner(deps, call.conversationId, { url: call.room.url, name: call.room.name }, call.expiresAt);
};
