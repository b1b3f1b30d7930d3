// Whether a face's frames come on time (media/face/steadiness.ts): face-ready waits for its draws and for the
// frames its <video> presents to be steady, so the PAL's first words are not spoken while the page stalls
// setting the face up. Frame times are the test's own.
import { expect } from '@open-wc/testing';
import { GAP_MS, STEADY_IN_A_ROW, Steadiness } from '../../../src/palkit/client/media/face/steadiness.js';

/** Frames at the given times; whether they were steady after each. */
function framesAt(times: number[]): boolean[] {
  const frames = new Steadiness();
  return times.map((at) => frames.came(at));
}

describe('a face\'s frames are steady', () => {
  it(`once ${STEADY_IN_A_ROW} frames in a row came on time`, () => {
    const every40 = Array.from({ length: 8 }, (_, i) => 1000 + i * 40);
    expect(framesAt(every40)).to.deep.equal([false, false, false, false, true, true, true, true]);
  });

  it('not again until as many came on time after a stall', () => {
    // On time, then a 300 ms stall (WebKitGTK's, a trained face's rig just loaded), then on time again.
    const times = [0, 40, 80, 120, 160, 460, 500, 540, 580, 620];
    expect(framesAt(times)).to.deep.equal([false, false, false, false, true, false, false, false, false, true]);
  });

  it(`counts a frame up to ${GAP_MS} ms after the one before as on time, and one later as after a stall`, () => {
    expect(framesAt([0, GAP_MS, 2 * GAP_MS, 3 * GAP_MS, 4 * GAP_MS]).at(-1)).to.equal(true);
    expect(framesAt([0, 40, 80, 120, 120 + GAP_MS + 1]).at(-1)).to.equal(false);
  });

  it('never while frames come 100-160 ms apart (a busy page presenting 8-10 a second)', () => {
    const times = [0, 110, 260, 370, 500, 640, 750, 900];
    expect(framesAt(times).some(Boolean)).to.equal(false);
  });
});
