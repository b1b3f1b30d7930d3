// `pal-turn-latency`: what the visitor heard of one PAL reply, measured in the page (local rooms).
import { PalEvent } from './pal-event.js';

export type PalTurnLatencyDetail = {
  /** Ms from the end of the visitor's turn to the PAL's first audible sample at the audio output; absent where it cannot be measured. */
  readonly heardMs?: number;
  /** Ms from the end of the turn to the first mouth movement drawn; absent without a drawn face. */
  readonly mouthMs?: number;
  /** p95 over the reply of |mouth shape drawn − its audio at the output|, ms; absent without a drawn face. */
  readonly lipSyncMs?: number;
  /** When the turn ended (message sent, or the service's end-of-turn mark), ms since the Unix epoch. */
  readonly turnEndedAt: number;
  readonly input: 'text' | 'speech';
  /** The reply's `inference_id`. */
  readonly inference_id: string;
};

/** Fired once per PAL reply after a visitor's turn, when the reply has played out. */
export class PalTurnLatencyEvent extends PalEvent<PalTurnLatencyDetail> {
  static readonly type = 'pal-turn-latency';

  constructor(detail: PalTurnLatencyDetail) {
    super(PalTurnLatencyEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-turn-latency': PalTurnLatencyEvent;
  }
}
