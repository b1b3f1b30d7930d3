// Whether a face is drawn on time (media/face/drawing-steady.ts): face-ready waits for it, so the PAL's first
// words are not spoken while the page stalls setting the face up. Draw times are the test's own.
import { expect } from '@open-wc/testing';
import { DrawingSteadiness, GAP_MS, STEADY_DRAWS } from '../../../src/palkit/client/media/face/drawing-steady.js';

/** Draws at the given times; whether the drawing was steady after each. */
function drawAt(times: number[]): boolean[] {
  const drawing = new DrawingSteadiness();
  return times.map((at) => drawing.drawn(at));
}

describe("a face's drawing is steady", () => {
  it(`once ${STEADY_DRAWS} draws in a row came on time`, () => {
    const every40 = Array.from({ length: 8 }, (_, i) => 1000 + i * 40);
    expect(drawAt(every40)).to.deep.equal([false, false, false, false, true, true, true, true]);
  });

  it('not again until as many came on time after a stall', () => {
    // On time, then a 300 ms stall (WebKitGTK's, a trained face's rig just loaded), then on time again.
    const times = [0, 40, 80, 120, 160, 460, 500, 540, 580, 620];
    expect(drawAt(times)).to.deep.equal([false, false, false, false, true, false, false, false, false, true]);
  });

  it(`counts a draw up to ${GAP_MS} ms after the one before as on time, and one later as after a stall`, () => {
    expect(drawAt([0, GAP_MS, 2 * GAP_MS, 3 * GAP_MS, 4 * GAP_MS]).at(-1)).to.equal(true);
    expect(drawAt([0, 40, 80, 120, 120 + GAP_MS + 1]).at(-1)).to.equal(false);
  });
});
