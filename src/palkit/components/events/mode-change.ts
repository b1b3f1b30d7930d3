// `pal-mode-change`: Fired on every change of `mode` (the screen shown).
import { PalEvent } from './pal-event.js';
import type { SessionMode } from '../../client/session-events.js';

export type PalModeChangeDetail = { readonly mode: SessionMode; readonly previous: SessionMode };

/** Fired on every change of `mode` (the screen shown). */
export class PalModeChangeEvent extends PalEvent<PalModeChangeDetail> {
  static readonly type = 'pal-mode-change';

  constructor(detail: PalModeChangeDetail) {
    super(PalModeChangeEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-mode-change': PalModeChangeEvent;
  }
}
