// `pal-state-change`: Fired on every change of `state`.
import type { SessionState } from '../../client/session-events.js';

export type PalStateChangeDetail = { readonly state: SessionState; readonly previous: SessionState };

/** Fired on every change of `state`. */
export class PalStateChangeEvent extends Event {
  static readonly type = 'pal-state-change';
  readonly detail: PalStateChangeDetail;

  constructor(detail: PalStateChangeDetail) {
    super(PalStateChangeEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-state-change': PalStateChangeEvent;
  }
}
