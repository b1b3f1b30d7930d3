// `pal-control` (pal-controls): a call control was pressed, or an input device picked.
import { PalEvent } from './pal-event.js';

export type ControlAction = 'microphone' | 'camera' | 'end' | 'captions' | 'chat';

export type PalControlDetail = {
  readonly action: ControlAction | 'device';
  /** With `device`: the input picked. */
  readonly device?: { readonly audioDeviceId?: string; readonly videoDeviceId?: string };
};

/** A control of the call's toolbar was pressed; `detail.action` says which. */
export class PalControlEvent extends PalEvent<PalControlDetail> {
  static readonly type = 'pal-control';

  constructor(detail: PalControlDetail) {
    super(PalControlEvent.type, detail, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-control': PalControlEvent;
  }
}
