// The narrow view of a live conversation that in-call parts (transcript, canvas, disclosure, stage)
// are given: what arrives from the room, how to send into it, and how to record canvas interactions.
// The session implements it; tests and stories implement it with a stand-in.
import type { CanvasInteractionBody } from '../../protocol/canvas-interaction.js';
import type { RoomTranscriptEntry } from '../../protocol/room.js';

export type { CanvasInteractionBody, RoomTranscriptEntry };

/** Fired on a ConversationLink for every app-message that arrives from the room (raw, unvalidated). */
export class LinkMessageEvent extends Event {
  static readonly type = 'link-message';
  constructor(readonly message: unknown) {
    super(LinkMessageEvent.type);
  }
}

/** Fired on a ConversationLink when the room sent the conversation so far (on joining; after a reload). */
export class LinkHistoryEvent extends Event {
  static readonly type = 'link-history';
  constructor(readonly history: readonly RoomTranscriptEntry[]) {
    super(LinkHistoryEvent.type);
  }
}

export interface ConversationLink extends EventTarget {
  readonly conversationId: string;
  /** What was said before this page joined, as the room keeps it (empty where the room keeps none). */
  readonly history?: readonly RoomTranscriptEntry[];
  /** Broadcast an interactions-protocol message to the room. */
  send(message: { message_type?: string; event_type: string; conversation_id?: string; properties?: unknown }): void;
  /** Record a Magic Canvas interaction with the service (public while the conversation is active). */
  postCanvasInteraction(body: CanvasInteractionBody): Promise<void>;
}
