// `pal-protocol-message`: Fired for every interactions-protocol message from the room; `detail` is the message itself.
import { PalEvent } from './pal-event.js';
import type { InteractionMessage } from '../../../protocol/interactions.js';

export type PalProtocolMessageDetail = InteractionMessage;

/** Fired for every interactions-protocol message from the room; `detail` is the message itself. */
export class PalProtocolMessageEvent extends PalEvent<PalProtocolMessageDetail> {
  static readonly type = 'pal-protocol-message';

  constructor(detail: PalProtocolMessageDetail) {
    super(PalProtocolMessageEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-protocol-message': PalProtocolMessageEvent;
  }
}
