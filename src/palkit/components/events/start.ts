// `pal-start` (pal-preview): the visitor asked to start; the deployment element starts the conversation.
import { PalEvent } from './pal-event.js';

export type PalStartDetail = {
  /** The consent text the visitor accepted, when the deployment asks for consent. */
  readonly acceptedTerms?: string;
  /** The visitor chose to talk by text. */
  readonly text?: boolean;
};

/** The preview's start button was pressed (with the consent box ticked where one is shown). */
export class PalStartEvent extends PalEvent<PalStartDetail> {
  static readonly type = 'pal-start';

  constructor(detail: PalStartDetail) {
    super(PalStartEvent.type, detail, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-start': PalStartEvent;
  }
}
