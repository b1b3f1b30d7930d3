// `pal-captcha-unavailable` (pal-gate): the bot check could not load or failed to run.
import { PalEvent } from './pal-event.js';

/** The bot check could not load or run; the deployment element shows why the visitor cannot go on. */
export class PalCaptchaUnavailableEvent extends PalEvent<null> {
  static readonly type = 'pal-captcha-unavailable';

  constructor() {
    super(PalCaptchaUnavailableEvent.type, null, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-captcha-unavailable': PalCaptchaUnavailableEvent;
  }
}
