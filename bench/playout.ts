// The PAL's voice as the visitor's page would play it, without a page: the same schedule as the element's
// player (src/palkit/client/transport/pal-audio.ts) — slices back to back while they keep coming, a new run
// starting JITTER_S after its first slice arrives — applied to when each slice arrived here.
//
// A slice is **late** when it arrives after everything sent before it in the same utterance has played:
// the page's player has run dry, so the visitor hears a gap in the PAL's voice. This is judged against
// the slices' own pace (each carries its duration: samples / rate), not against a clock of the sender's.
import { AUDIBLE, JITTER_S } from '../src/palkit/client/transport/pal-audio.js';
import type { AudioFrame } from '../src/protocol/room.js';

export interface Played {
  /** When the slice starts playing, ms on performance.now()'s clock. */
  start: number;
  /** When its first audible sample plays, or null when it is silent. */
  audibleAt: number | null;
  /** It arrived after the utterance's earlier slices had all played. */
  late: boolean;
}

export class Playout {
  private nextStart = 0;
  /** Slices received in the current utterance (between the PAL's started_speaking and stopped_speaking). */
  private inUtterance = 0;
  private speaking = false;

  /** The PAL began an utterance (its first slice follows). */
  utteranceStarted(): void {
    this.speaking = true;
    this.inUtterance = 0;
  }

  /** The utterance ended or was cut off (audio-flush): what follows starts afresh. */
  utteranceEnded(): void {
    this.speaking = false;
    this.inUtterance = 0;
  }

  flush(): void {
    this.nextStart = 0;
    this.utteranceEnded();
  }

  /** A slice of the PAL's voice arrived at `now`. */
  receive(frame: AudioFrame, now: number): Played {
    const newRun = this.nextStart <= now;
    const start = Math.max(this.nextStart, now + (newRun ? JITTER_S * 1000 : 0));
    this.nextStart = start + (frame.samples.length / frame.sampleRate) * 1000;
    const late = newRun && this.speaking && this.inUtterance > 0;
    if (this.speaking) this.inUtterance++;
    const first = frame.samples.findIndex((v) => v >= AUDIBLE || v <= -AUDIBLE);
    return { start, audibleAt: first >= 0 ? start + (first / frame.sampleRate) * 1000 : null, late };
  }
}
