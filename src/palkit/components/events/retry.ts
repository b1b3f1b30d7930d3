// `pal-retry` (pal-unavailable, pal-error-screen): the visitor asked to try again.
import { PalEvent } from './pal-event.js';

/** The retry button of the unavailable or error screen was pressed. */
export class PalRetryEvent extends PalEvent<null> {
  static readonly type = 'pal-retry';

  constructor() {
    super(PalRetryEvent.type, null, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-retry': PalRetryEvent;
  }
}
