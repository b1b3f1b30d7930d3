// Interactions protocol (the app-messages exchanged with the PAL in the room).
// PLACEHOLDER SIGNATURE: the live-conversation work replaces the body with full zod/mini schemas of
// every message; the exported names and the "null for unknown or malformed" contract stay.

export interface InteractionMessage {
  message_type: string;
  event_type: string;
  conversation_id?: string;
  inference_id?: string;
  seq?: number;
  turn_idx?: number;
  properties: Record<string, unknown>;
}

/** Returns the message when it is a well-formed interactions-protocol message, otherwise null. */
export function parseInteraction(raw: unknown): InteractionMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (typeof m.event_type !== 'string') return null;
  const properties = typeof m.properties === 'object' && m.properties !== null ? (m.properties as Record<string, unknown>) : {};
  return { ...(m as object), message_type: typeof m.message_type === 'string' ? m.message_type : 'conversation', event_type: m.event_type, properties } as InteractionMessage;
}
