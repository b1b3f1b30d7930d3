// `pal-conversation-ended`: Fired when a live conversation ends (by the visitor, the page or the room). Not fired on element removal.
import { PalEvent } from './pal-event.js';

export type PalConversationEndedDetail = { readonly conversationId: string };

/** Fired when a live conversation ends (by the visitor, the page or the room). Not fired on element removal. */
export class PalConversationEndedEvent extends PalEvent<PalConversationEndedDetail> {
  static readonly type = 'pal-conversation-ended';

  constructor(detail: PalConversationEndedDetail) {
    super(PalConversationEndedEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-conversation-ended': PalConversationEndedEvent;
  }
}
