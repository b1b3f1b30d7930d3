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
  /** Whether this service can record its calls (its recorder listens in local rooms only). */
  readonly canRecord: boolean;
  /** The conversation_url known before the room exists (local rooms), or null when the provider assigns it. */
  plannedUrl(conversationId: string): string | null;
  open(input: OpenRoomInput): Promise<OpenedRoom>;
  /** Closes the provider's room; idempotent (a room already gone is fine). */
  close(room: { conversationId: string; room: string | null }): Promise<void>;
}

/** The provider failed or answered something unusable: the conversation could not start. */
export class ProviderError extends Error {}

/**
 * The 400 message for a recording the provider cannot make, said where it is configured (a deployment's
 * customization, a conversation's properties) rather than to each visitor who starts a call.
 */
export function recordingRefusal(provider: ConferencingProvider, field: string): string | null {
  if (provider.canRecord) return null;
  return `invalid_request: ${field}: ${provider.name === 'daily' ? 'Daily' : provider.name} conversations cannot be recorded by this service (it records local rooms); turn recording off, or run local rooms (unset PALKIT_DAILY_API_KEY)`;
}
