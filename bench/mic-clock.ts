// One clock for every simulated microphone: each visitor's frames are due at its own real-time pace
// (one every 20 ms from when its microphone opened), and a single short interval sends whatever is due,
// catching up after a stall as a browser's worklet does. How late frames left here is kept, so that a run
// where the visitors' own process fell behind can be told from one where the service did.
import { MIC_FRAME_MS } from './spoken-turn.js';

export interface Microphone {
  /** Sends the frame due at this index (0-based, from when the microphone opened). */
  sendFrame(index: number, now: number): void;
}

const TICK_MS = 5;

export class MicClock {
  private readonly mics = new Map<Microphone, { openedAt: number; sent: number }>();
  private readonly timer: NodeJS.Timeout;
  /** How late each frame left, ms past the end of the 20 ms it carries. */
  readonly lagMs: number[] = [];

  constructor() {
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  open(mic: Microphone): void {
    this.mics.set(mic, { openedAt: performance.now(), sent: 0 });
  }

  close(mic: Microphone): void {
    this.mics.delete(mic);
  }

  stop(): void {
    clearInterval(this.timer);
    this.mics.clear();
  }

  private tick(): void {
    const now = performance.now();
    for (const [mic, state] of this.mics) {
      // A frame leaves once the 20 ms it carries have been "captured".
      const due = Math.floor((now - state.openedAt) / MIC_FRAME_MS);
      for (; state.sent < due && this.mics.has(mic); state.sent++) {
        this.lagMs.push(now - (state.openedAt + (state.sent + 1) * MIC_FRAME_MS));
        mic.sendFrame(state.sent, now);
      }
    }
  }
}
