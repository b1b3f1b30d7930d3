// `pal-end-answer` (pal-end-confirm): the visitor answered "End the call?".
import { PalEvent } from './pal-event.js';

export type PalEndAnswerDetail = {
  /** True for "End call", false for "Keep talking" (or Escape). */
  readonly end: boolean;
};

/** The visitor answered "End the call?". */
export class PalEndAnswerEvent extends PalEvent<PalEndAnswerDetail> {
  static readonly type = 'pal-end-answer';

  constructor(detail: PalEndAnswerDetail) {
    super(PalEndAnswerEvent.type, detail, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-end-answer': PalEndAnswerEvent;
  }
}
