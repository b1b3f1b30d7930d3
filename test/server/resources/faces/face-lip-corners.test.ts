// A smile's dark mouth corners go into the opening (rig/lip-edge.ts takeCornerShadows, issue 51's clip face):
// drawn on a flat face, a dark corner under FaceMesh's lower inner lip moves that point below it, the lip's
// rings stay below the point, a fold of the inner lips is undone, and a mouth with nothing dark under its lips
// is left as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { takeCornerShadows } from '../../../../src/server/resources/faces/rig/lip-edge.js';
import { LOWER_INNER, LOWER_LIP_RINGS, UPPER_INNER } from '../../../../src/server/resources/faces/rig/mesh-shapes.js';

type Point = [number, number];
const SIZE = 200;
const pose = { x: 100, y: 100, width: 80, angle: 0 };

/** A flat skin-coloured frame, with dark rectangles where asked. */
function frame(darks: Array<[number, number, number, number]> = []): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(SIZE * SIZE * 4);
  for (let i = 0; i < SIZE * SIZE; i++) rgba.set([220, 180, 160, 255], i * 4);
  for (const [x0, y0, x1, y1] of darks)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) rgba.set([70, 40, 35, 255], (y * SIZE + x) * 4);
  return rgba;
}

/** A closed smile's landmarks: inner lips along y = 100 (upper a pixel above), the lower lip's rings 4, 8, 12 px below. */
function smile(): Point[] {
  const marks: Point[] = Array.from({ length: 478 }, () => [100, 150] as Point);
  UPPER_INNER.forEach((i, k) => (marks[i] = [60 + (80 * k) / (UPPER_INNER.length - 1), 99]));
  LOWER_INNER.forEach((i, k) => {
    const x = 60 + (80 * (k + 1)) / (UPPER_INNER.length - 1);
    marks[i] = [x, 101];
    LOWER_LIP_RINGS.forEach((ring, r) => (marks[ring[k]!] = [x, 105 + 4 * r]));
  });
  for (const i of [17, 18, 200]) marks[i] = [100, 130];
  return marks;
}

describe("a rig's lips at a smile's dark corners", () => {
  it('moves a lower inner point below the dark under it, and the lip below that', () => {
    const marks = smile();
    const left = LOWER_INNER[0]!;
    const [x] = marks[left]!;
    takeCornerShadows(marks, pose, frame([[Math.round(x) - 2, 101, Math.round(x) + 3, 109]]), SIZE, SIZE);
    assert.ok(marks[left]![1] >= 108.5, `the point moved to the dark's end: y ${marks[left]![1]}`);
    LOWER_LIP_RINGS.forEach((ring, r) =>
      assert.ok(marks[ring[0]!]![1] > marks[left]![1] + r, `ring ${r} stays below the point: ${marks[ring[0]!]![1]}`),
    );
    // Beside the corner the lower edge falls towards the middle: the next point is no higher; nearer the
    // middle the lip is left where it was.
    assert.ok(marks[LOWER_INNER[1]!]![1] >= marks[left]![1]);
    assert.equal(marks[LOWER_INNER[4]!]![1], 101);
  });

  it('undoes a fold: a lower inner point above its upper partner', () => {
    const marks = smile();
    const [up, low] = [UPPER_INNER[3]!, LOWER_INNER[2]!];
    marks[up] = [marks[up]![0], 104];
    marks[low] = [marks[low]![0], 100];
    takeCornerShadows(marks, pose, frame(), SIZE, SIZE);
    assert.ok(marks[low]![1] >= marks[up]![1], `lower ${marks[low]![1]} not above upper ${marks[up]![1]}`);
  });

  it('leaves lips with nothing dark under them as they were', () => {
    const marks = smile();
    const before = JSON.stringify(marks);
    // Dark further down (a crease under the lower lip), not just under the lips.
    takeCornerShadows(marks, pose, frame([[50, 120, 150, 124]]), SIZE, SIZE);
    assert.equal(JSON.stringify(marks), before);
  });
});
