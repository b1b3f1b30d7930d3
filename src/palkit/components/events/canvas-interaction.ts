// `pal-canvas-interaction`: Fired after a Magic Canvas interaction was recorded with the service; `detail` is what was recorded.
import { PalEvent } from './pal-event.js';
import type { CanvasInteractionBody } from '../../client/link.js';

export type PalCanvasInteractionDetail = CanvasInteractionBody;

/** Fired after a Magic Canvas interaction was recorded with the service; `detail` is what was recorded. */
export class PalCanvasInteractionEvent extends PalEvent<PalCanvasInteractionDetail> {
  static readonly type = 'pal-canvas-interaction';

  constructor(detail: PalCanvasInteractionDetail) {
    super(PalCanvasInteractionEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-canvas-interaction': PalCanvasInteractionEvent;
  }
}
