// `pal-password` (pal-gate): the visitor submitted the deployment password.
import { PalEvent } from './pal-event.js';

/** What the password step hands on: the password, and the challenge's token where there is one. */
export interface GateAnswer {
  readonly password: string;
  readonly captchaToken?: string;
}

/** The gate's password form was submitted (with the bot check's token once it is solved). */
export class PalPasswordEvent extends PalEvent<GateAnswer> {
  static readonly type = 'pal-password';

  constructor(detail: GateAnswer) {
    super(PalPasswordEvent.type, detail, false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pal-password': PalPasswordEvent;
  }
}
