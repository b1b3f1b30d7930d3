// `pal-canvas-interaction`: Fired after a Magic Canvas interaction was recorded with the service; `detail` is what was recorded.
import type { CanvasInteractionBody } from '../../client/link.js';

export type PalCanvasInteractionDetail = CanvasInteractionBody;

/** Fired after a Magic Canvas interaction was recorded with the service; `detail` is what was recorded. */
export class PalCanvasInteractionEvent extends Event {
  static readonly type = 'pal-canvas-interaction';
  readonly detail: PalCanvasInteractionDetail;

  constructor(detail: PalCanvasInteractionDetail) {
    super(PalCanvasInteractionEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-canvas-interaction': PalCanvasInteractionEvent;
  }
}
