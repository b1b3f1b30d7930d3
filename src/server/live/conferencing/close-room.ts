// The durable job that closes a provider's room after the conversation ended (enqueued by
// resources/conversations/end-conversation.ts in the same transaction as the end): a Daily conversation whose meeting
// never took place gets its end callbacks first, then Daily's room is deleted.
import type { ServiceDeps } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { CLOSE_ROOM_JOB } from '../../resources/conversations/end-conversation.js';
import { conferencingProvider } from '../../providers/conferencing/index.js';
import { finalizeIfNoMeeting } from './daily-deadlines.js';

export function closeRoomJobs(deps: ServiceDeps): Record<string, JobHandler> {
  return {
    [CLOSE_ROOM_JOB]: async ({ payload }: { payload: { conversation_id: string; provider: 'local' | 'daily'; room: string } }) => {
      if (payload.provider === 'daily') await finalizeIfNoMeeting(deps, payload.conversation_id);
      if (payload.provider === 'daily' && !deps.config.daily.apiKey) return; // the key was removed: the room expires by itself
      await conferencingProvider(deps, payload.provider).close({ conversationId: payload.conversation_id, room: payload.room });
    },
  };
}
