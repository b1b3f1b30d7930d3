// `pal-conversation-ended`: Fired when a live conversation ends (by the visitor, the page or the room). Not fired on element removal.
export type PalConversationEndedDetail = { readonly conversationId: string };

/** Fired when a live conversation ends (by the visitor, the page or the room). Not fired on element removal. */
export class PalConversationEndedEvent extends Event {
  static readonly type = 'pal-conversation-ended';
  readonly detail: PalConversationEndedDetail;

  constructor(detail: PalConversationEndedDetail) {
    super(PalConversationEndedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-conversation-ended': PalConversationEndedEvent;
  }
}
