// `pal-confirm` (pal-haircheck): the visitor is ready to join with the devices chosen.
import { PalEvent } from './pal-event.js';

export interface HaircheckChoice {
  audioDeviceId?: string;
  videoDeviceId?: string;
  cameraOn: boolean;
  microphoneOn: boolean;
  /** No microphone (refused or missing): the visitor goes on by text. */
  textMode?: boolean;
}

/** The device check's join button was pressed; `detail` is what the visitor chose. */
export class PalConfirmEvent extends PalEvent<HaircheckChoice> {
  static readonly type = 'pal-confirm';

  constructor(detail: HaircheckChoice) {
    super(PalConfirmEvent.type, detail, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-confirm': PalConfirmEvent;
  }
}
