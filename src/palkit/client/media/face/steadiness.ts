// Whether a face's frames come on time: its draws, and the frames the <video> showing it presents. The PAL's
// first words wait for both (transport/pal-face.ts sends `face-ready` once the <video> has the face's first
// frame and both are steady), so that they are not spoken while the page is still busy setting the face up:
// - draws: WebKitGTK on a loaded 2-core machine stalled its main thread for 140-380 ms every 250-400 ms for
//   about a second after a trained face's rig loaded; a greeting begun in that stretch had its first words
//   drawn a stall late (first motion 63-160 ms after the voice, test/realtime/e2e/lip-sync-webkit.test.ts);
// - presented frames: with its draws on time again, WebKitGTK's <video> still presented the face 8-10 times a
//   second (100-160 ms apart) in the second after the join on that machine with its cores kept busy, and
//   greetings begun then were the turns whose mouths moved late (93-212 ms after the voice, later turns 5-76).

/** Frames in a row that came on time (each within GAP_MS of the one before) for them to be steady. */
export const STEADY_IN_A_ROW = 4;
/** A face draws every 33-40 ms: a frame later than this after the one before came after a stall. */
export const GAP_MS = 70;

export class Steadiness {
  #last = -Infinity;
  #onTime = 0;

  /** Whether the last STEADY_IN_A_ROW frames came on time. */
  get steady(): boolean {
    return this.#onTime >= STEADY_IN_A_ROW;
  }

  /** A frame came at `at` (ms); whether the frames are steady now. */
  came(at: number): boolean {
    this.#onTime = at - this.#last <= GAP_MS ? this.#onTime + 1 : 0;
    this.#last = at;
    return this.steady;
  }
}
