// Where a conversation's call takes place. The service's own WebSocket room (`local`) or a Daily room;
// the browser picks its transport from the URL (a host under daily.co → Daily).

export interface OpenRoomInput {
  conversationId: string;
  /** The room (and the visitor's token) stops admitting anyone at this time. */
  expiresAt: Date;
  properties: { enable_closed_captions?: boolean | undefined };
}

export interface OpenedRoom {
  conversationUrl: string;
  meetingToken: string;
  /** Provider-side room name, kept to close the room at the end. */
  room: string | null;
}

export interface ConferencingProvider {
  readonly name: 'local' | 'daily';
  /** The conversation_url known before the room exists (local rooms), or null when the provider assigns it. */
  plannedUrl(conversationId: string): string | null;
  open(input: OpenRoomInput): Promise<OpenedRoom>;
  /** Closes the provider's room; idempotent (a room already gone is fine). */
  close(room: { conversationId: string; room: string | null }): Promise<void>;
}

/** The provider failed or answered something unusable: the conversation could not start. */
export class ProviderError extends Error {}
