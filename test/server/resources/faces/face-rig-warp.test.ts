// The mouths made for a photo (and for visemes a clip lacks): the jaw comes down with the opening, the
// opening is shaded rather than one flat colour, and the patch fades out where it is still the resting
// mouth, so it blends into the frame without a visible edge. On a synthetic resting mouth: skin with a
// dark chin line, lips meeting on the centre line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImageData } from '@napi-rs/canvas';
import { MOUTH_CELL, MOUTH_WIDTH } from '../../../../src/server/resources/faces/rig/build.js';
import { warpMouth } from '../../../../src/server/resources/faces/rig/warp.js';

const { width: W, height: H } = MOUTH_CELL;
const A = MOUTH_WIDTH / 2;
/** The chin's outline, this many half-widths below the mouth's centre. */
const CHIN = 1.5;

function restingMouth(): ImageData {
  const data = new Uint8ClampedArray(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = (y + 0.5 - H / 2) / A;
      const u = (x + 0.5 - W / 2) / A;
      // Skin with a little texture; lips (red) within the mouth's width; a dark line for the chin.
      let rgb = [200 + ((x * 7 + y * 13) % 9), 160, 140];
      if (Math.abs(u) < 1 && Math.abs(v) < 0.3) rgb = [170, 80, 90];
      if (Math.abs(v - CHIN) < 0.05) rgb = [60, 40, 30];
      data.set([...rgb, 255], (y * W + x) * 4);
    }
  }
  return new ImageData(data, W, H);
}

const at = (image: ImageData, x: number, y: number) => [...image.data.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)];
const luminance = (p: number[]) => 0.3 * p[0]! + 0.59 * p[1]! + 0.11 * p[2]!;

describe('made mouths', () => {
  const rest = restingMouth();
  const open = warpMouth(rest, 'A', MOUTH_WIDTH);
  const middle = Math.floor(W / 2);

  it('moves the chin down with the opening (the jaw drops, not only the lower lip)', () => {
    const chinRow = (image: ImageData) => {
      for (let y = Math.floor(H / 2 + A); y < H; y++) if (luminance(at(image, middle, y)) < 80) return y;
      return -1;
    };
    // Where the lips part: the opening's height in the middle column (neither lip nor skin: teeth or dark).
    let gap = 0;
    for (let y = Math.floor(H / 2 - A); y < H / 2 + A; y++)
      if (Math.abs(luminance(at(open, middle, y)) - luminance([170, 80, 90])) > 30 && luminance(at(open, middle, y)) < 150) gap++;
    const moved = chinRow(open) - chinRow(rest);
    assert.ok(gap >= 0.4 * A, `the lips part (${gap} px)`);
    assert.ok(moved >= 0.8 * gap, `the chin moved ${moved} px for an opening of ${gap} px`);
  });

  it('shades the opening: darkest in its depth, lighter towards the lips and the tongue', () => {
    const inside = [];
    for (let y = 0; y < H; y++) {
      const l = luminance(at(open, middle, y));
      if (l < 100) inside.push(l);
    }
    assert.ok(inside.length >= 0.4 * A, `an opening of ${inside.length} px`);
    assert.ok(Math.min(...inside) < 30, `its depth is dark (${Math.min(...inside).toFixed(0)})`);
    assert.ok(
      Math.max(...inside) - Math.min(...inside) >= 20,
      `a gradient, not one flat colour (${Math.min(...inside).toFixed(0)}–${Math.max(...inside).toFixed(0)})`,
    );
  });

  it('draws a hint of upper teeth under the upper lip when the resting mouth shows none', () => {
    let teeth = 0;
    for (let y = Math.floor(H / 2); y < H / 2 + A; y++) {
      const [r, g, b] = at(open, middle, y);
      if (r! > 170 && g! > 170 && b! > 160) teeth++;
    }
    assert.ok(teeth >= 2, `${teeth} rows of teeth`);
  });

  it('fades to nothing before the cell edge, and is the resting mouth wherever the frame shows through', () => {
    for (const viseme of ['A', 'O', 'U', 'E', 'M'] as const) {
      const patch = warpMouth(rest, viseme, MOUTH_WIDTH);
      let seen = 0;
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          const p = at(patch, x, y);
          if (x === 0 || y === 0 || x === W - 1 || y === H - 1)
            assert.equal(p[3], 0, `${viseme}: the cell's edge (${x}, ${y}) is transparent`);
          if (p[3]! <= 128) {
            seen++;
            const r = at(rest, x, y);
            for (let c = 0; c < 3; c++)
              assert.ok(Math.abs(p[c]! - r[c]!) <= 2, `${viseme}: (${x}, ${y}) half shown is the resting mouth (${p} vs ${r})`);
          }
        }
      }
      assert.ok(seen > W * 4, `${viseme}: a feathered margin (${seen} px)`);
    }
  });
});
