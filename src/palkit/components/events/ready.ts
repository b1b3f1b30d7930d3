// `pal-ready`: Fired once per element after the deployment configuration has loaded; methods work from here on.
import { PalEvent } from './pal-event.js';

export type PalReadyDetail = { readonly deploymentId: string };

/** Fired once per element after the deployment configuration has loaded; methods work from here on. */
export class PalReadyEvent extends PalEvent<PalReadyDetail> {
  static readonly type = 'pal-ready';

  constructor(detail: PalReadyDetail) {
    super(PalReadyEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-ready': PalReadyEvent;
  }
}
