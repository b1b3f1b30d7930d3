// `pal-ready`: Fired once per element after the deployment configuration has loaded; methods work from here on.
export type PalReadyDetail = { readonly deploymentId: string };

/** Fired once per element after the deployment configuration has loaded; methods work from here on. */
export class PalReadyEvent extends Event {
  static readonly type = 'pal-ready';
  readonly detail: PalReadyDetail;

  constructor(detail: PalReadyDetail) {
    super(PalReadyEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-ready': PalReadyEvent;
  }
}
