// The service's own room: `{publicUrl}/rooms/{conversation_id}`, admitted by a signed meeting token.
import type { Secrets } from '../../platform/secrets.js';
import { signMeetingToken } from './meeting-token.js';
import type { ConferencingProvider } from './provider.js';

export function localProvider(publicUrl: string, secrets: Secrets): ConferencingProvider {
  const urlFor = (id: string) => `${publicUrl}/rooms/${id}`;
  return {
    name: 'local',
    canRecord: true,
    plannedUrl: urlFor,
    async open({ conversationId, expiresAt }) {
      return { conversationUrl: urlFor(conversationId), meetingToken: signMeetingToken(secrets, conversationId, expiresAt), room: null };
    },
    async close() {
      // The live room listens for `conversation.ended` on the bus and in the database; nothing to release here.
    },
  };
}
