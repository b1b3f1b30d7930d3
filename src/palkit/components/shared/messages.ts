// The page's sendMessage()/sendChat() input turned into interactions-protocol messages.

export interface OutgoingMessage {
  event_type: string;
  properties?: Record<string, unknown>;
  message_type?: string;
}

/** A plain string is what the visitor would say: `conversation.respond`. */
export function toOutgoing(event: string | OutgoingMessage): OutgoingMessage {
  return typeof event === 'string' ? { event_type: 'conversation.respond', properties: { text: event } } : event;
}
