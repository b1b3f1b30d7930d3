// `pal-conversation-created`: Fired when `createConversation()` created a conversation (not when a start joins one already being created).
import { PalEvent } from './pal-event.js';

export type PalConversationCreatedDetail = { readonly conversationId: string };

/** Fired when `createConversation()` created a conversation (not when a start joins one already being created). */
export class PalConversationCreatedEvent extends PalEvent<PalConversationCreatedDetail> {
  static readonly type = 'pal-conversation-created';

  constructor(detail: PalConversationCreatedDetail) {
    super(PalConversationCreatedEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-conversation-created': PalConversationCreatedEvent;
  }
}
