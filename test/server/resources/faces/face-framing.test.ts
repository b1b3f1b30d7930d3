// A trained face's framing (rig/build.ts fitCrop): a square crop on the face as a video call frames it; where
// the picture ends before the crop does, the crop moves and tightens to stay inside (a blurred band of fill
// across the top of the frame was the first thing a visitor saw on the shared portrait), within bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitCrop } from '../../../../src/server/resources/faces/rig/build.js';

const inside = (c: { cx: number; cy: number; side: number }, w: number, h: number) =>
  c.cx - c.side / 2 >= -1e-6 && c.cy - c.side / 2 >= -1e-6 && c.cx + c.side / 2 <= w + 1e-6 && c.cy + c.side / 2 <= h + 1e-6;

describe('the face framed in its picture', () => {
  it('keeps the ideal crop where the picture holds it', () => {
    const ideal = { cx: 500, cy: 400, side: 480 };
    assert.deepEqual(fitCrop(ideal, 200, { width: 1000, height: 800 }), ideal);
  });

  it('moves and tightens a crop that passes the top, keeping the widest that fits (the shared portrait)', () => {
    // The portrait: 512 px square, its face about 213 px, the ideal crop 110 px above the picture.
    const size = 213;
    const ideal = { cx: 225, cy: 146, side: 2.4 * size };
    const crop = fitCrop(ideal, size, { width: 512, height: 512 });
    assert.ok(inside(crop, 512, 512), JSON.stringify(crop));
    assert.ok(crop.side >= 1.9 * size - 1e-6 && crop.side < ideal.side, `side ${crop.side}`);
    assert.ok(crop.cy - ideal.cy <= 0.3 * size + 1e-6, `moved ${crop.cy - ideal.cy}`);
    // The widest that fits: one step wider would not.
    assert.ok(crop.side + Math.max(1, ideal.side / 200) > 2 * (ideal.cy + 0.3 * size), `side ${crop.side}`);
  });

  it('goes no tighter and moves no further than its bounds when nothing fits (the fill shows the rest)', () => {
    const size = 200;
    const crop = fitCrop({ cx: 500, cy: 0, side: 480 }, size, { width: 1000, height: 1000 });
    assert.equal(crop.side, 1.9 * size);
    assert.equal(crop.cy, 0.3 * size);
    assert.equal(crop.cx, 500);
  });
});
