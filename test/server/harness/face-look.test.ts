// The face-look instrument's pure parts (test/helpers/face-look/, issue 51 point 7) on synthetic images: a
// drawn "face" with a hand-made 468-point mesh, and the made frames its thresholds are calibrated on. No
// model, no browser, no real time: the calibration itself, with FaceMesh, is test/realtime/face-look-calibration.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyseLook, type LookedFrame } from '../../helpers/face-look/analyse.js';
import {
  applySimilarity,
  blank,
  correlation,
  cosine,
  fitSimilarity,
  lumaOf,
  polygonMask,
  quantile,
  type Point,
  type Rgb,
} from '../../helpers/face-look/image.js';
import { blackEllipse, blink, moveHead, noisy, openJaw, pastedBrows, random } from '../../helpers/face-look/made-frames.js';
import { chinDrop, mouthInside, outsideChange, prepareRest } from '../../helpers/face-look/measures.js';
import { LOWER_LIP_BAND, chinEdgeDrop, chinProfile } from '../../helpers/face-look/chin-edge.js';
import { CHIN, EYES, FACE_OVAL, INNER_LIPS, OUTER_LIPS, eyeAspect, mouthOpening, type Mesh } from '../../helpers/face-look/regions.js';
import { THRESHOLDS, judgeLook } from '../../helpers/face-look/verdict.js';

/**
 * A drawn face on a 200×240 frame: a textured skin oval, two dark eyes, brows, a mouth line; and a mesh whose
 * named points sit where the drawing puts them (the rest of the 468 on a grid inside the oval, unused).
 */
function drawnFace(): { image: Rgb; mesh: Mesh } {
  const width = 200,
    height = 240,
    cx = 100,
    top = 40,
    bottom = 200;
  const mesh: Mesh = Array.from({ length: 468 }, (_, i): Point => [70 + (i % 20) * 3, 90 + Math.floor(i / 20) * 2]);
  // The oval, the forehead (10) to the chin (152), clockwise.
  FACE_OVAL.forEach((index, k) => {
    const angle = (k / FACE_OVAL.length) * 2 * Math.PI - Math.PI / 2;
    mesh[index] = [cx + 62 * Math.cos(angle), (top + bottom) / 2 + 80 * Math.sin(angle)];
  });
  mesh[10] = [cx, top];
  mesh[CHIN] = [cx, bottom];
  for (const [i, p] of [
    [151, [cx, 55]],
    [9, [cx, 80]],
    [8, [cx, 88]],
    [168, [cx, 95]],
    [6, [cx, 105]],
    [197, [cx, 112]],
    [195, [cx, 120]],
    [5, [cx, 126]],
    [4, [cx, 132]],
    [2, [cx, 140]],
    [0, [cx, 150]],
    [17, [cx, 170]],
  ] as const)
    mesh[i] = [...p] as Point;
  for (const [i, p] of [
    [127, [44, 100]],
    [356, [156, 100]],
    [109, [80, 48]],
    [338, [120, 48]],
    [67, [66, 56]],
    [297, [134, 56]],
    [21, [48, 80]],
    [251, [152, 80]],
    [172, [62, 172]],
    [397, [138, 172]],
  ] as const)
    mesh[i] = [...p] as Point;
  // Eyes: lid loops around (75, 100) and (125, 100), 24 wide, 8 tall.
  EYES.forEach((loop, e) => {
    const ex = e === 0 ? 75 : 125;
    loop.forEach((index, k) => {
      const angle = Math.PI + (k / loop.length) * 2 * Math.PI;
      mesh[index] = [ex + 12 * Math.cos(angle) * (e === 0 ? 1 : -1), 100 + 4 * Math.sin(angle)];
    });
  });
  // Brows over the eyes.
  for (const [k, i] of [70, 63, 105, 66, 107].entries()) mesh[i] = [64 + k * 5, 86];
  for (const [k, i] of [300, 293, 334, 296, 336].entries()) mesh[i] = [136 - k * 5, 86];
  // Lips: the inner loop around (100, 158), 36 wide, 2 tall; 13 and 14 its middle; cheeks.
  INNER_LIPS.forEach((index, k) => {
    const angle = Math.PI + (k / INNER_LIPS.length) * 2 * Math.PI;
    mesh[index] = [cx + 18 * Math.cos(angle), 158 + 1 * Math.sin(angle)];
  });
  mesh[13] = [cx, 157];
  mesh[14] = [cx, 159];
  // The lips' outer loop round the painted lips (80–120 by 154–162); its middles 0 and 17 stay where (c)'s lower-lip band reads them.
  OUTER_LIPS.forEach((index, k) => {
    const angle = Math.PI + (k / OUTER_LIPS.length) * 2 * Math.PI;
    if (index !== 0 && index !== 17) mesh[index] = [cx + 21 * Math.cos(angle), 158 + 5 * Math.sin(angle)];
  });
  for (const [i, p] of [
    [50, [70, 130]],
    [280, [130, 130]],
    [117, [66, 118]],
    [346, [134, 118]],
  ] as const)
    mesh[i] = [...p] as Point;

  const image = blank(width, height, [200, 210, 220]);
  const next = random(3);
  const oval = polygonMask(
    width,
    height,
    FACE_OVAL.map((i) => mesh[i]!),
  );
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!oval.data[i]) continue;
      // Skin with a texture (so that alignment and shifts have something to match).
      const t = 12 * Math.sin(x / 5.1) * Math.cos(y / 6.3) + (next() - 0.5) * 6;
      image.rgb.set(
        [200 + t, 160 + t, 140 + t].map((v) => Math.max(0, Math.min(255, Math.round(v)))),
        i * 3,
      );
    }
  }
  const paint = (polygon: Point[], rgb: [number, number, number]) => {
    const mask = polygonMask(width, height, polygon);
    for (let i = 0; i < mask.data.length; i++) if (mask.data[i]) image.rgb.set(rgb, i * 3);
  };
  for (const loop of EYES)
    paint(
      loop.map((i) => mesh[i]!),
      [40, 30, 30],
    );
  paint(
    [
      [62, 84],
      [88, 84],
      [88, 88],
      [62, 88],
    ],
    [90, 60, 40],
  );
  paint(
    [
      [112, 84],
      [138, 84],
      [138, 88],
      [112, 88],
    ],
    [90, 60, 40],
  );
  paint(
    [
      [80, 154],
      [120, 154],
      [120, 162],
      [80, 162],
    ],
    [170, 90, 90],
  );
  // Teeth between the lips at rest, as the portrait smiles with them.
  paint(
    [
      [84, 156],
      [116, 156],
      [116, 160],
      [84, 160],
    ],
    [235, 230, 215],
  );
  return { image, mesh };
}

describe('face-look image helpers', () => {
  it('fits the similarity that moved a set of points', () => {
    const from: Point[] = [
      [10, 10],
      [50, 12],
      [30, 40],
      [70, 60],
    ];
    const truth = { a: 1.1 * Math.cos(0.1), b: 1.1 * Math.sin(0.1), tx: 5, ty: -3 };
    const fitted = fitSimilarity(
      from,
      from.map((p) => applySimilarity(truth, p)),
    );
    for (const key of ['a', 'b', 'tx', 'ty'] as const) assert.ok(Math.abs(fitted[key] - truth[key]) < 1e-9, key);
  });

  it('fills a polygon, reads quantiles, correlations and cosines', () => {
    const mask = polygonMask(10, 10, [
      [2, 2],
      [8, 2],
      [8, 8],
      [2, 8],
    ]);
    assert.equal(
      mask.data.reduce((s, v) => s + v, 0),
      36,
    );
    assert.equal(quantile([5, 1, 3], 0.5), 3);
    assert.ok(Math.abs(correlation([1, 2, 3], [2, 4, 6]) - 1) < 1e-12);
    assert.ok(Number.isNaN(correlation([1, 2, 3], [5, 5, 5])));
    assert.ok(Math.abs(cosine([1, 0], [0, 1])) < 1e-12);
  });
});

describe('face-look measures on a drawn face', () => {
  const { image, mesh } = drawnFace();
  const rest = prepareRest({ image, mesh });

  it('(a) a head moved and noisy stays near zero; rectangles pasted over the brows do not', () => {
    const moved = moveHead(image, mesh, { a: Math.cos(0.03) / 1.02, b: Math.sin(0.03) / 1.02, tx: 4, ty: -2 });
    const quiet = outsideChange(rest, { image: noisy(moved.image, 3), mesh: moved.mesh }).worst;
    const pasted = outsideChange(rest, { image: pastedBrows(image, mesh), mesh }).worst;
    assert.ok(quiet < THRESHOLDS.outsideMax, `moved: ${quiet}`);
    assert.ok(pasted > 2 * THRESHOLDS.outsideMax, `pasted: ${pasted}`);
  });

  it('(a) landmarks that read the face 5 % larger and a pixel off (FaceMesh on an open mouth) are not a change; pasted brows still are', () => {
    // The frame's pixels are the rest frame's; only its landmarks are spread about the face's centre.
    const spread = (m: Mesh): Mesh => m.map(([x, y]): Point => [100 + 1.05 * (x - 100) + 1, 120 + 1.05 * (y - 120) - 1]);
    const unmoved = outsideChange(rest, { image: noisy(image, 3), mesh: spread(mesh) }).worst;
    const pasted = outsideChange(rest, { image: pastedBrows(image, mesh), mesh: spread(mesh) }).worst;
    assert.ok(unmoved < 10, `misread landmarks: ${unmoved}`);
    assert.ok(pasted > 2 * THRESHOLDS.outsideMax, `pasted, misread landmarks: ${pasted}`);
  });

  it('(a) the eyelids and the jaw are not counted: a blink and an open jaw change nothing outside them', () => {
    assert.ok(outsideChange(rest, { image: blink(image, mesh), mesh }).worst < 6);
    assert.ok(outsideChange(rest, { image: openJaw(image, mesh, 16), mesh }).worst < 6);
  });

  it('(b) an inside with a tooth row over a shaded throat and a tongue has spread, teeth and warm tones; a flat black one is a void; a dark hole under pale lips is cold', () => {
    // The lips' inner loop opened to 20 px tall around (100, 166), their outer loop 4 px beyond it.
    const open: Mesh = mesh.map((p) => [...p] as Point);
    INNER_LIPS.forEach((index, k) => {
      const angle = Math.PI + (k / INNER_LIPS.length) * 2 * Math.PI;
      open[index] = [100 + 18 * Math.cos(angle), 166 + 10 * Math.sin(angle)];
    });
    OUTER_LIPS.forEach((index, k) => {
      const angle = Math.PI + (k / OUTER_LIPS.length) * 2 * Math.PI;
      open[index] = [100 + 22 * Math.cos(angle), 166 + 14 * Math.sin(angle)];
    });
    const fill = (lips: [number, number, number], rgbAt: (y: number) => [number, number, number]) => {
      const frame = { ...image, rgb: Uint8Array.from(image.rgb) };
      const outer = polygonMask(
        frame.width,
        frame.height,
        OUTER_LIPS.map((i) => open[i]!),
      );
      const mask = polygonMask(
        frame.width,
        frame.height,
        INNER_LIPS.map((i) => open[i]!),
      );
      for (let i = 0; i < mask.data.length; i++)
        if (mask.data[i]) frame.rgb.set(rgbAt(Math.floor(i / frame.width)), i * 3);
        else if (outer.data[i]) frame.rgb.set(lips, i * 3);
      return frame;
    };
    const next = random(5);
    // Teeth, a shaded throat (warm: its blue under its green) and a tongue on its floor, inside red lips.
    const shaded = fill([170, 90, 90], (y) =>
      y < 163 ? [236, 230, 214] : y > 170 ? [150, 70, 75] : [90 - (y - 163) * 3 + next() * 20, 35 + next() * 10, 25 + next() * 10],
    );
    const good = mouthInside({ image: shaded, mesh: open });
    const bad = mouthInside({ image: fill([170, 90, 90], () => [17, 17, 17]), mesh: open });
    // The clip face's hole before issue 51's fix: a thin tooth strip over a dim brown throat with grain, the lips pale.
    const hole = mouthInside({
      image: fill([176, 160, 156], (y) => (y < 160 ? [236, 230, 214] : [60 + next() * 14, 38 + next() * 8, 40 + next() * 8])),
      mesh: open,
    });
    const T = THRESHOLDS;
    assert.ok(
      good.spread > T.insideSpread &&
        good.toothShare > T.toothShare &&
        good.voidShare < T.voidShare &&
        good.warmShare > T.warmShare &&
        good.throatHue > T.throatHue,
      JSON.stringify(good),
    );
    assert.ok(bad.spread < T.insideSpread && bad.toothShare < T.toothShare && bad.voidShare > T.voidShare, JSON.stringify(bad));
    assert.ok(
      hole.spread > T.insideSpread &&
        hole.toothShare > T.toothShare &&
        hole.voidShare < T.voidShare &&
        hole.warmShare < T.warmShare &&
        hole.throatHue < T.throatHue,
      JSON.stringify(hole),
    );
  });

  it("(c) the chin dropped in the mesh reads as a drop, in face heights, whatever the head's move", () => {
    const dropped: Mesh = mesh.map((p, i) => (i === CHIN ? [p[0], p[1] + 8] : p));
    assert.ok(Math.abs(chinDrop(rest, dropped) - 8 / 160) < 1e-9);
    const moved = moveHead(image, dropped, { a: 1 / 1.1, b: 0, tx: 10, ty: 10 });
    assert.ok(Math.abs(chinDrop(rest, moved.mesh) - 8 / 160) < 1e-6);
  });

  it("(c) the pixels read the chin's and the lower lip's drop: a jaw carries both, a frozen chin only the lip", () => {
    const restChin = chinProfile(rest, lumaOf(image)),
      restLip = chinProfile(rest, lumaOf(image), LOWER_LIP_BAND);
    // Each read through (a)'s refined alignment, the head moved a little: drops in rest face heights (160 px here).
    const read = (frame: Rgb) => {
      const moved = moveHead(frame, mesh, { a: 1 / 1.05, b: 0.01, tx: 4, ty: 3 });
      const toFrame = outsideChange(rest, { image: moved.image, mesh: moved.mesh }).toFrame;
      const luma = lumaOf(moved.image);
      return { chin: chinEdgeDrop(restChin, luma, toFrame), lip: chinEdgeDrop(restLip, luma, toFrame) };
    };
    const jaw = read(openJaw(image, mesh, 12));
    assert.ok(Math.abs(jaw.chin - 12 / 160) < 1.5 / 160 && Math.abs(jaw.lip - 12 / 160) < 1.5 / 160, JSON.stringify(jaw));
    const frozen = read(openJaw(image, mesh, 12, { carryChin: false }));
    // Over a frozen chin the skin under the lip is squeezed, and the lip's band (which reaches into it) reads less.
    assert.ok(Math.abs(frozen.chin) < 1 / 160 && frozen.lip > 8 / 160 && frozen.lip < 13 / 160, JSON.stringify(frozen));
    const still = read(image);
    assert.ok(Math.abs(still.chin) < 1 / 160 && Math.abs(still.lip) < 1 / 160, JSON.stringify(still));
  });

  it('(d) the eye aspect falls as the lids close', () => {
    const closed: Mesh = mesh.map((p) => [...p] as Point);
    for (const loop of EYES) for (const i of loop) closed[i] = [mesh[i]![0], 100];
    assert.ok(eyeAspect(mesh) > 0.25 && eyeAspect(closed) < 0.01);
  });

  it('analyses a reply: the good one holds, each bad one fails its own measure', () => {
    const reply = (edit: (i: number) => { image: Rgb; mesh: Mesh }): LookedFrame[] =>
      Array.from({ length: 12 }, (_, i) => ({ at: i * 40, ...edit(i), embedding: [1, 0.1 * (i % 3), 0.2], silent: i === 0 }));
    // The opening of frame i, its mesh (the lower lip and chin moved with the jaw) and its eyes (closed at 3 and 8).
    const openings = [0, 0, 4, 8, 12, 16, 12, 8, 4, 0, 10, 16];
    const meshAt = (i: number, chin = true, eyesClosed = [3, 8].includes(i)): Mesh =>
      mesh.map((p, k) => {
        const o = openings[i]!;
        if (k === 14 || ((INNER_LIPS.includes(k) || (OUTER_LIPS.includes(k) && k !== 17)) && p[1] > 158)) return [p[0], p[1] + o];
        if (k === CHIN && chin) return [p[0], p[1] + o];
        if (eyesClosed && EYES.some((loop) => loop.includes(k))) return [p[0], 100];
        return p;
      });
    const good = reply((i) => ({
      image: [3, 8].includes(i) ? blink(openJaw(image, mesh, openings[i]!), mesh) : openJaw(image, mesh, openings[i]!),
      mesh: meshAt(i),
    }));
    assert.deepEqual(judgeLook(analyseLook(good, 0)), { outside: true, inside: true, chin: true, blink: true, same: true });
    const pasted = reply((i) => ({
      image: [3, 8].includes(i) ? pastedBrows(openJaw(image, mesh, openings[i]!), mesh) : openJaw(image, mesh, openings[i]!),
      mesh: meshAt(i, true, false),
    }));
    const verdict = judgeLook(analyseLook(pasted, 0));
    assert.equal(verdict.outside, false);
    assert.equal(verdict.blink, false);
    const frozen = reply((i) => ({ image: openings[i] ? blackEllipse(image, mesh, openings[i]!) : image, mesh: meshAt(i, false) }));
    const frozenVerdict = judgeLook(analyseLook(frozen, 0));
    assert.equal(frozenVerdict.chin, false);
    assert.equal(frozenVerdict.inside, false);
    const other = reply(() => ({ image, mesh: meshAt(0) }));
    other[5]!.embedding = [-0.2, 1, 0];
    assert.equal(judgeLook(analyseLook(other, 0)).same, false);
  });

  it('reads the mouth opening in face heights', () => {
    assert.ok(Math.abs(mouthOpening(mesh) - 2 / 160) < 1e-9);
    assert.ok(lumaOf(image).data.length === 200 * 240);
  });
});
