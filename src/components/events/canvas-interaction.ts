import type { CanvasInteractionBody } from '../../client/link.js';

/**
 * Fired by `pal-canvas` once for every Magic Canvas interaction (submit, skip, dismiss, clear, error)
 * as it is recorded with the interactions endpoint; `detail` is the recorded body. Retries after a
 * failed post do not fire it again.
 */
export class PalCanvasInteractionEvent extends Event {
  static readonly type = 'pal-canvas-interaction';
  readonly detail: Readonly<CanvasInteractionBody>;
  constructor(body: CanvasInteractionBody) {
    super(PalCanvasInteractionEvent.type, { bubbles: true, composed: true });
    this.detail = body;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-canvas-interaction': PalCanvasInteractionEvent;
  }
}
