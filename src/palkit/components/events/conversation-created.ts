// `pal-conversation-created`: Fired when `createConversation()` created a conversation (not when a start joins one already being created).
export type PalConversationCreatedDetail = { readonly conversationId: string };

/** Fired when `createConversation()` created a conversation (not when a start joins one already being created). */
export class PalConversationCreatedEvent extends Event {
  static readonly type = 'pal-conversation-created';
  readonly detail: PalConversationCreatedDetail;

  constructor(detail: PalConversationCreatedDetail) {
    super(PalConversationCreatedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-conversation-created': PalConversationCreatedEvent;
  }
}
