// `pal-restart` (pal-ended): the visitor asked for a new conversation after the call.
import { PalEvent } from './pal-event.js';

/** The after-call screen's button was pressed (when it is no redirect link). */
export class PalRestartEvent extends PalEvent<null> {
  static readonly type = 'pal-restart';

  constructor() {
    super(PalRestartEvent.type, null, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-restart': PalRestartEvent;
  }
}
