// `pal-conversation-started`: Fired when the visitor has joined and the conversation is connected.
import { PalEvent } from './pal-event.js';

export type PalConversationStartedDetail = { readonly conversationId: string };

/** Fired when the visitor has joined and the conversation is connected. */
export class PalConversationStartedEvent extends PalEvent<PalConversationStartedDetail> {
  static readonly type = 'pal-conversation-started';

  constructor(detail: PalConversationStartedDetail) {
    super(PalConversationStartedEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-conversation-started': PalConversationStartedEvent;
  }
}
