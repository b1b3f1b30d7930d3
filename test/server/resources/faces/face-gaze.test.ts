// A photo face's looks aside (face-drawing/gaze.ts): at the visitor most of the time, a pixel or two aside now
// and then, the change quick; a look slides the lids' texture (the iris) while every point stays where it is.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gazeAt } from '../../../../src/face-drawing/gaze.js';
import { STILL_HEAD, livingHead, meshFrame, noChannels } from '../../../../src/face-drawing/mesh.js';
import { FaceRig } from '../../../../src/protocol/faces/rig.js';

const rig = FaceRig.parse(JSON.parse(readFileSync(new URL('../../../fixtures/rig-v2/rig.json', import.meta.url), 'utf8')));

describe("a photo face's gaze", () => {
  it('looks at the visitor about half the time, otherwise at most 2 px aside on a 512 px face, and repeats', () => {
    const looks = Array.from({ length: 6000 }, (_, k) => gazeAt(k * 20, 512));
    const ahead = looks.filter(([x, y]) => x === 0 && y === 0).length / looks.length;
    assert.ok(ahead > 0.3 && ahead < 0.8, `at the visitor ${(ahead * 100).toFixed(0)} % of 2 min`);
    assert.ok(
      looks.every(([x, y]) => Math.abs(x) <= 2 && Math.abs(y) <= 0.3),
      'within reach',
    );
    assert.ok(looks.some(([x]) => x < -1) && looks.some(([x]) => x > 1), 'looks both ways');
    assert.deepEqual(gazeAt(12_345, 512), gazeAt(12_345, 512));
    // A change takes 40 ms: even from one side to the other (4 px) no step of 20 ms makes more than half of it.
    for (let k = 1; k < looks.length; k++) assert.ok(Math.abs(looks[k]![0] - looks[k - 1]![0]) <= 2.01, `step at ${k * 20} ms`);
    assert.ok(livingHead(12_345, 0, 512).gaze, 'a photo head carries its look');
  });

  it('slides the lids’ texture only: no point moves, the eyes’ triangles are drawn, the mouth’s are not', () => {
    const m = meshFrame(rig, 0, noChannels(), { ...STILL_HEAD, gaze: [2, 0] });
    const base = rig.mesh!.frames[0]!;
    const near = (a: number, b: number) => Math.abs(a - b) < 1e-3;
    for (let i = 0; i < base.length; i++) assert.ok(near(m.target[i]!, base[i]!), `point ${i >> 1} stays`);
    // Upper lids' middles (159, 386) take the look; the nose tip (1) and lips (13, 14) do not.
    for (const i of [159, 386]) assert.ok(near(m.source[2 * i]!, base[2 * i]! - 2), `lid point ${i} slides`);
    for (const i of [1, 13, 14]) assert.ok(near(m.source[2 * i]!, base[2 * i]!), `point ${i} keeps its texture`);
    assert.ok(m.moved.length > 0, 'the eyes are drawn over the frame');
    const t = rig.mesh!.triangles;
    assert.ok(!m.moved.some((k) => [t[3 * k], t[3 * k + 1], t[3 * k + 2]].includes(13)), 'nothing at the mouth is redrawn');
    assert.equal(m.hole, null);
  });
});
