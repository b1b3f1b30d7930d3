// Wire frames of palkit's local conversation room (WebSocket at the conversation_url, ws/wss scheme).
// The interactions protocol travels inside `app-message` frames exactly as it would over Daily.
import * as z from 'zod/mini';

export const ParticipantRole = z.enum(['pal', 'visitor', 'operator']);
export type ParticipantRole = z.infer<typeof ParticipantRole>;

export const Participant = z.object({
  participant_id: z.string(),
  user_name: z.string(),
  role: ParticipantRole,
  /** For the PAL: what to show as its video tile (the face's thumbnail video or image). */
  video_url: z.optional(z.nullable(z.string())),
  image_url: z.optional(z.nullable(z.string())),
});
export type Participant = z.infer<typeof Participant>;

/** Frames a client sends. The first frame must be `join`; the meeting token never appears in a URL. */
export const ClientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('join'), meeting_token: z.string(), user_name: z.optional(z.string()) }),
  z.object({ type: z.literal('app-message'), data: z.unknown(), to: z.optional(z.string()) }),
  z.object({ type: z.literal('leave') }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** Frames the room sends. */
export const ServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('joined'), participant_id: z.string(), conversation_id: z.string(), participants: z.array(Participant) }),
  z.object({ type: z.literal('participant-joined'), participant: Participant }),
  z.object({ type: z.literal('participant-left'), participant_id: z.string() }),
  z.object({ type: z.literal('app-message'), from: z.string(), data: z.unknown() }),
  /** The room shut down; `reason` is one of the spec's shutdown reasons. */
  z.object({ type: z.literal('ended'), reason: z.string() }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** Close codes the room uses (4000–4999 are application codes). */
export const RoomCloseCode = { invalidToken: 4401, notFound: 4404, ended: 4410, badFrame: 4400 } as const;

/** ws(s) address of the room behind an http(s) conversation_url. */
export function roomSocketUrl(conversationUrl: string): string {
  const url = new URL(conversationUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
