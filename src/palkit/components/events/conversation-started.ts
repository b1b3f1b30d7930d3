// `pal-conversation-started`: Fired when the visitor has joined and the conversation is connected.
export type PalConversationStartedDetail = { readonly conversationId: string };

/** Fired when the visitor has joined and the conversation is connected. */
export class PalConversationStartedEvent extends Event {
  static readonly type = 'pal-conversation-started';
  readonly detail: PalConversationStartedDetail;

  constructor(detail: PalConversationStartedDetail) {
    super(PalConversationStartedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-conversation-started': PalConversationStartedEvent;
  }
}
