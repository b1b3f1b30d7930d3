// Whether a face is being drawn on time: the PAL's first words wait for it (transport/pal-face.ts sends
// `face-ready` once the <video> has the face's first frame and the drawing is steady), so that they are not
// spoken while the page is still busy setting the face up. WebKitGTK on a loaded 2-core machine stalled its
// main thread for 140-380 ms every 250-400 ms for about a second after a trained face's rig loaded; a
// greeting begun in that stretch had its first words drawn a stall late (first motion 63-160 ms after the
// voice, test/realtime/e2e/lip-sync-webkit.test.ts).

/** Draws in a row that came on time (each within GAP_MS of the one before) for the drawing to be steady. */
export const STEADY_DRAWS = 4;
/** A face draws every 40 ms: a draw later than this after the one before came after a stall. */
export const GAP_MS = 70;

export class DrawingSteadiness {
  #last = -Infinity;
  #onTime = 0;

  /** Whether the last STEADY_DRAWS draws came on time. */
  get steady(): boolean {
    return this.#onTime >= STEADY_DRAWS;
  }

  /** A frame was drawn at `at` (ms); whether the drawing is steady now. */
  drawn(at: number): boolean {
    this.#onTime = at - this.#last <= GAP_MS ? this.#onTime + 1 : 0;
    this.#last = at;
    return this.steady;
  }
}
