// `pal-captcha` (pal-gate, captcha-only step): the bot check was solved; `detail` is its token.
import { PalEvent } from './pal-event.js';

/** The bot check alone was solved; `detail` is the Turnstile token. */
export class PalCaptchaEvent extends PalEvent<string> {
  static readonly type = 'pal-captcha';

  constructor(token: string) {
    super(PalCaptchaEvent.type, token, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-captcha': PalCaptchaEvent;
  }
}
