// `pal-error`: Fired when something fails; `code` is stable, `message` is for people.
import type { PalErrorCode } from '../../client/errors.js';

export type PalErrorDetail = { readonly code: PalErrorCode; readonly message: string; readonly retryAfter?: number };

/** Fired when something fails; `code` is stable, `message` is for people. */
export class PalErrorEvent extends Event {
  static readonly type = 'pal-error';
  readonly detail: PalErrorDetail;

  constructor(detail: PalErrorDetail) {
    super(PalErrorEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-error': PalErrorEvent;
  }
}
