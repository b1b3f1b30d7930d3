// `pal-mode-change`: Fired on every change of `mode` (the screen shown).
import type { SessionMode } from '../../client/session-events.js';

export type PalModeChangeDetail = { readonly mode: SessionMode; readonly previous: SessionMode };

/** Fired on every change of `mode` (the screen shown). */
export class PalModeChangeEvent extends Event {
  static readonly type = 'pal-mode-change';
  readonly detail: PalModeChangeDetail;

  constructor(detail: PalModeChangeDetail) {
    super(PalModeChangeEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-mode-change': PalModeChangeEvent;
  }
}
