// The narrow view of a live conversation that in-call parts (transcript, canvas, disclosure, stage)
// are given: what arrives from the room, how to send into it, and how to record canvas interactions.
// The session implements it; tests and stories implement it with a stand-in.
import type { CanvasInteractionBody } from '../../protocol/canvas-interaction.js';

export type { CanvasInteractionBody };

/** Fired on a ConversationLink for every app-message that arrives from the room (raw, unvalidated). */
export class LinkMessageEvent extends Event {
  static readonly type = 'link-message';
  constructor(readonly message: unknown) {
    super(LinkMessageEvent.type);
  }
}

export interface ConversationLink extends EventTarget {
  readonly conversationId: string;
  /** Broadcast an interactions-protocol message to the room. */
  send(message: { message_type?: string; event_type: string; conversation_id?: string; properties?: unknown }): void;
  /** Record a Magic Canvas interaction with the service (public while the conversation is active). */
  postCanvasInteraction(body: CanvasInteractionBody): Promise<void>;
}
