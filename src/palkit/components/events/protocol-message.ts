// `pal-protocol-message`: Fired for every interactions-protocol message from the room; `detail` is the message itself.
import type { InteractionMessage } from '../../../protocol/interactions.js';

export type PalProtocolMessageDetail = InteractionMessage;

/** Fired for every interactions-protocol message from the room; `detail` is the message itself. */
export class PalProtocolMessageEvent extends Event {
  static readonly type = 'pal-protocol-message';
  readonly detail: PalProtocolMessageDetail;

  constructor(detail: PalProtocolMessageDetail) {
    super(PalProtocolMessageEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-protocol-message': PalProtocolMessageEvent;
  }
}
