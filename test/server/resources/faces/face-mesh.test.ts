// A version-2 rig's geometry (face-drawing/mesh.ts, rig/mesh-shapes.ts, rig/triangulate.ts) on the portrait's
// rig (test/fixtures/rig-v2): the jaw carries the chin and lower lip and nothing above the mouth, a blink moves
// the lids only, the triangles tile the frame, blinks come every 2–8 s and stay closed 60–120 ms, and a clip's
// idle loop plays back and forth (no seam).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BLINK, Blinks, channelsOf, idleFrameAt, meshFrame, noChannels, seeded } from '../../../../src/face-drawing/mesh.js';
import { FaceRig } from '../../../../src/protocol/faces/rig.js';
import { triangulate } from '../../../../src/server/resources/faces/rig/triangulate.js';
import { meshModel } from '../../../../src/server/resources/faces/rig/mesh-shapes.js';

const rig = FaceRig.parse(JSON.parse(readFileSync(new URL('../../../fixtures/rig-v2/rig.json', import.meta.url), 'utf8')));
const moveOf = (channels: ReturnType<typeof noChannels>, i: number) => {
  const m = meshFrame(rig, 0, channels);
  return [m.target[2 * i]! - m.source[2 * i]!, m.target[2 * i + 1]! - m.source[2 * i + 1]!] as const;
};

describe("a version-2 rig's mesh", () => {
  it('is its frame exactly at rest: nothing to draw over it', () => {
    const m = meshFrame(rig, 0, noChannels());
    assert.equal(m.moved.length, 0);
    assert.equal(m.hole, null);
  });

  it('drops the chin and the lower lip with the jaw, and leaves the upper face where it was', () => {
    const open = channelsOf(new Map([['A', 1]]));
    const width = rig.poses[0]!.width;
    const [, chin] = moveOf(open, 152);
    const [, lowerLip] = moveOf(open, 14);
    assert.ok(chin > 0.2 * width && chin < 0.4 * width, `the chin drops ${chin.toFixed(1)} px of a ${width} px mouth`);
    assert.ok(lowerLip > 0.2 * width, `the lower lip drops ${lowerLip.toFixed(1)} px`);
    for (const i of [159, 386, 1, 10, 105])
      assert.ok(Math.hypot(...moveOf(open, i)) < 0.1, `point ${i} (eyes, nose, forehead, brow) stays within a tenth of a pixel`);
    assert.ok(meshFrame(rig, 0, open).inside.length === 3, 'the inside is drawn in the opening');
  });

  it('keeps the lower lip its thickness at the widest opening, out to the corners', () => {
    // The shapes made afresh from the fixture's points (the fixture's own were made before this rule).
    const base = rig.mesh!.frames[0]!;
    const points = Array.from({ length: base.length / 2 }, (_, i): [number, number] => [base[2 * i]!, base[2 * i + 1]!]);
    const { mesh } = meshModel(points, rig.poses[0]!);
    const drop = (i: number) => mesh.shapes.jaw[2 * i + 1]! * rig.poses[0]!.width;
    // Inner edge and outer edge of the lower lip, point for point from one corner to the other.
    const inner = [95, 88, 178, 87, 14, 317, 402, 318, 324];
    const outer = [146, 91, 181, 84, 17, 314, 405, 321, 375];
    inner.forEach((i, k) => {
      const o = outer[k]!;
      const rest = points[o]![1] - points[i]![1];
      const open = rest + drop(o) - drop(i);
      assert.ok(open >= 0.9 * rest, `lip ${i}-${o}: ${rest.toFixed(1)} px at rest, ${open.toFixed(1)} px with the jaw dropped`);
    });
  });

  it('closes the lids at the outer corner without dragging the fold above it', () => {
    // The shapes made afresh from the fixture's points (the fixture's own were made before this rule).
    const base = rig.mesh!.frames[0]!;
    const points = Array.from({ length: base.length / 2 }, (_, i): [number, number] => [base[2 * i]!, base[2 * i + 1]!]);
    const { mesh } = meshModel(points, rig.poses[0]!);
    const width = rig.poses[0]!.width;
    const travel = (c: 'blinkL' | 'blinkR', i: number) => Math.hypot(mesh.shapes[c][2 * i]!, mesh.shapes[c][2 * i + 1]!) * width;
    const [cos, sin] = [Math.cos(rig.poses[0]!.angle), Math.sin(rig.poses[0]!.angle)];
    const at = (c: 'blinkL' | 'blinkR', i: number) => {
      // The shapes' moves are along the mouth's axes, in mouth widths.
      const [u, v] = [mesh.shapes[c][2 * i]! * width, mesh.shapes[c][2 * i + 1]! * width];
      return [points[i]![0] + cos * u - sin * v, points[i]![1] + sin * u + cos * v];
    };
    // Per eye: the outer corner's upper and lower lid points, the next upper lid point and the fold (crease) above it.
    for (const [c, upper, lower, nextUpper, fold, outerFold] of [
      ['blinkR', 246, 7, 161, 30, 247],
      ['blinkL', 466, 249, 388, 260, 467],
    ] as const) {
      const [u, l] = [at(c, upper), at(c, lower)];
      assert.ok(Math.hypot(u[0]! - l[0]!, u[1]! - l[1]!) < 0.1, `${c}: the lids meet at the outer corner`);
      assert.ok(travel(c, fold) <= 0.15 * travel(c, nextUpper), `${c}: the fold over the outer third takes ≤ 15 % of its lid's travel`);
      assert.equal(travel(c, outerFold), 0, `${c}: the corner's fold stays`);
    }
  });

  it('closes the lids in a blink and moves nothing below the eyes', () => {
    const closed = { ...noChannels(), blinkL: 1, blinkR: 1 };
    const m = meshFrame(rig, 0, closed);
    for (const [upper, lower] of [
      [159, 145],
      [386, 374],
    ] as const) {
      const gap = Math.abs(m.target[2 * upper + 1]! - m.target[2 * lower + 1]!);
      assert.ok(gap < 0.5, `lids ${upper}/${lower} meet: ${gap.toFixed(2)} px apart`);
    }
    for (const i of [1, 13, 14, 152, 61]) assert.equal(Math.hypot(...moveOf(closed, i)), 0, `point ${i} stays`);
  });

  it('tiles the frame with its triangles', () => {
    const points = rig.mesh!.frames[0]!;
    let area = 0;
    const t = rig.mesh!.triangles;
    for (let k = 0; k < t.length; k += 3) {
      const [a, b, c] = [t[k]!, t[k + 1]!, t[k + 2]!];
      area +=
        Math.abs(
          (points[2 * b]! - points[2 * a]!) * (points[2 * c + 1]! - points[2 * a + 1]!) -
            (points[2 * c]! - points[2 * a]!) * (points[2 * b + 1]! - points[2 * a + 1]!),
        ) / 2;
    }
    // All but the mouth's opening (a smile's: a few hundred px²).
    assert.ok(area > rig.width * rig.height - 1500 && area <= rig.width * rig.height + 1, `${area} px² of ${rig.width * rig.height}`);
    const square = triangulate([
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [5, 5],
    ]);
    assert.equal(square.length, 4);
  });

  it('blinks every 2–8 s, closed for 60–120 ms', () => {
    const blinks = new Blinks(seeded(1), 0);
    const starts: number[] = [];
    let closedFor = 0;
    let was = 0;
    for (let ms = 0; ms < 120_000; ms += 5) {
      const c = blinks.closure(ms);
      if (c > 0 && was === 0) starts.push(ms);
      if (c === 1) closedFor += 5;
      was = c;
    }
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
    assert.ok(
      gaps.every((g) => g >= 2000 && g <= 8000 + BLINK.closing + BLINK.closed + BLINK.opening),
      `gaps ${Math.min(...gaps)}–${Math.max(...gaps)} ms`,
    );
    assert.ok(Math.max(...gaps) - Math.min(...gaps) > 2000, 'with a spread');
    const perBlink = closedFor / starts.length;
    assert.ok(perBlink >= 60 && perBlink <= 120, `closed ${perBlink} ms a blink`);
  });

  it("plays a clip's idle loop back and forth", () => {
    const clip = { fps: 10, idle: { ...rig.idle, count: 4 }, mesh: rig.mesh };
    assert.deepEqual(
      Array.from({ length: 8 }, (_, k) => idleFrameAt(clip, k * 100)),
      [0, 1, 2, 3, 2, 1, 0, 1],
    );
    assert.deepEqual(
      Array.from({ length: 5 }, (_, k) => idleFrameAt({ ...clip, mesh: undefined }, k * 100)),
      [0, 1, 2, 3, 0],
    );
  });
});
