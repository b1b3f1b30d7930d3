// `pal-error`: Fired when something fails; `code` is stable, `message` is for people.
import { PalEvent } from './pal-event.js';
import type { PalErrorCode } from '../../client/errors.js';

export type PalErrorDetail = { readonly code: PalErrorCode; readonly message: string; readonly retryAfter?: number };

/** Fired when something fails; `code` is stable, `message` is for people. */
export class PalErrorEvent extends PalEvent<PalErrorDetail> {
  static readonly type = 'pal-error';

  constructor(detail: PalErrorDetail) {
    super(PalErrorEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-error': PalErrorEvent;
  }
}
