// `pal-state-change`: Fired on every change of `state`.
import { PalEvent } from './pal-event.js';
import type { SessionState } from '../../client/session-events.js';

export type PalStateChangeDetail = { readonly state: SessionState; readonly previous: SessionState };

/** Fired on every change of `state`. */
export class PalStateChangeEvent extends PalEvent<PalStateChangeDetail> {
  static readonly type = 'pal-state-change';

  constructor(detail: PalStateChangeDetail) {
    super(PalStateChangeEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-state-change': PalStateChangeEvent;
  }
}
