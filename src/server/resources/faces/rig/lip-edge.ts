// FaceMesh's inner lip points on a smile that shows its teeth sit a pixel or a few off the lips' real edge,
// often on the teeth: a lip stretched over them (pressed lips, a closing jaw) then carries white streaks. Each
// inner lip point is moved along the mouth's vertical to the strongest step between lip and teeth near it
// (the teeth brighter), found in the frame's own pixels. A mouth without teeth showing is left as it is. Then a
// smile's dark corners are taken into the opening (takeCornerShadows).
import type { MouthPose } from '../../../../protocol/faces/rig.js';
import { LOWER_INNER, LOWER_LIP_RINGS, UPPER_INNER } from './mesh-shapes.js';

type Point = [number, number];

/** How far up and down (mouth widths) the edge is looked for from FaceMesh's point. */
const SEARCH = 0.07;

/** `landmarks` with the inner lips moved onto the lip-teeth edge of `rgba` (a frame `width` wide), in place. */
export function snapLipsToTeeth(landmarks: Point[], pose: MouthPose, rgba: Uint8ClampedArray, width: number, height: number): void {
  const luma = (x: number, y: number) => {
    const [xi, yi] = [Math.round(x), Math.round(y)];
    if (xi < 0 || yi < 0 || xi >= width || yi >= height) return 0;
    const o = (yi * width + xi) * 4;
    return 0.299 * rgba[o]! + 0.587 * rgba[o + 1]! + 0.114 * rgba[o + 2]!;
  };
  const [sin, cos] = [Math.sin(pose.angle), Math.cos(pose.angle)];
  const along = (p: Point, t: number): Point => [p[0] - sin * t, p[1] + cos * t];
  const gap = Math.hypot(landmarks[13]![0] - landmarks[14]![0], landmarks[13]![1] - landmarks[14]![1]);
  // Teeth show only where the lips are apart; between the middles, bright.
  if (gap < 0.06 * pose.width || luma(...along(landmarks[13]!, gap / 2)) < 150) return;
  const range = SEARCH * pose.width;
  const step = Math.max(0.5, range / 16);
  for (const [points, sign] of [
    [UPPER_INNER.slice(1, -1), 1],
    [LOWER_INNER, -1],
  ] as const) {
    for (const i of points) {
      const p = landmarks[i]!;
      let [best, bestT] = [0, 0];
      for (let t = -range; t <= range; t += step) {
        // The upper lip's edge: darker above, teeth below (sign 1); the lower lip's the other way round.
        const contrast = sign * (luma(...along(p, t + 1.5)) - luma(...along(p, t - 1.5)));
        if (contrast > best) [best, bestT] = [contrast, t];
      }
      if (best > 25) landmarks[i] = along(p, bestT);
    }
  }
}

/** How far below a lower inner lip point (mouth widths) a corner's shadow is looked for, and how near it must start. */
const SHADOW_REACH = 0.12;
const SHADOW_START = 0.03;
/** Dark: luma under this share of the lower lip's and the skin under it. */
const SHADOW_DARK = 0.6;
/** Beside the corners: this far from the mouth's middle at least (mouth widths; the corners are about 0.45 out). */
const CORNER = 0.2;

/**
 * A smile's dark mouth corners belong to the opening. On a blurred clip frame FaceMesh sets the lips a little
 * high: the corners' shadows then lie under the lower inner lip, on the lower lip's triangles, and as the jaw
 * drops those stretch them into dark strokes from the corners down the cheeks (issue 51's clip face). So, in
 * place: folds of the inner lips are undone (a lower point above its upper partner); each lower inner point with
 * a dark run starting just under it goes to that run's end; the lower inner edge is made to fall from the
 * corners to the middle; the lip's rings are kept below it; and each corner goes to the middle of a dark run under it.
 */
export function takeCornerShadows(landmarks: Point[], pose: MouthPose, rgba: Uint8ClampedArray, width: number, height: number): void {
  const luma = (x: number, y: number) => {
    const [xi, yi] = [Math.round(x), Math.round(y)];
    if (xi < 0 || yi < 0 || xi >= width || yi >= height) return 255;
    const o = (yi * width + xi) * 4;
    return 0.299 * rgba[o]! + 0.587 * rgba[o + 1]! + 0.114 * rgba[o + 2]!;
  };
  const [sin, cos] = [Math.sin(pose.angle), Math.cos(pose.angle)];
  const along = (p: Point, t: number): Point => [p[0] - sin * t, p[1] + cos * t];
  const down = (p: Point) => -sin * p[0] + cos * p[1];
  const mid = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const refs = [mid(landmarks[14]!, landmarks[17]!), landmarks[17]!, landmarks[18]!, landmarks[200]!]
    .map((p) => luma(...p))
    .sort((a, b) => a - b);
  const dark = SHADOW_DARK * refs[Math.floor(refs.length / 2)]!;
  const step = 0.5;
  /** The dark run starting within SHADOW_START under p: its first and last offsets (pixels), or null. */
  const runUnder = (p: Point): [number, number] | null => {
    let [first, last, light] = [-1, -1, 0];
    for (let t = 0; t <= SHADOW_REACH * pose.width; t += step) {
      if (luma(...along(p, t)) < dark) {
        if (first < 0) {
          if (t > SHADOW_START * pose.width) return null;
          first = t;
        }
        [last, light] = [t, 0];
      } else if (first >= 0 && ++light >= 3) break;
    }
    return first < 0 ? null : [first, last];
  };
  // First, no lower inner point above its upper partner: FaceMesh's corners fold so on a smile (the fold drew a
  // notch at the opening's corner); both meet halfway.
  LOWER_INNER.forEach((low, k) => {
    const up = UPPER_INNER[k + 1]!;
    const fold = down(landmarks[up]!) - down(landmarks[low]!);
    if (fold <= 0) return;
    landmarks[up] = along(landmarks[up]!, -fold / 2);
    landmarks[low] = along(landmarks[low]!, fold / 2);
  });
  LOWER_INNER.forEach((i) => {
    const run = runUnder(landmarks[i]!);
    if (run) landmarks[i] = along(landmarks[i]!, run[1] + step);
  });
  // Beside the corners the lower lip's inner edge falls towards the middle (a smile's rises to the corners): a
  // point there higher than its neighbour nearer the corner kinked the opening's lower edge into a notch as the
  // jaw dropped. (Only beside the corners: a corner's shadow must not pull the whole lower lip down.)
  const across = (p: Point) => Math.abs((p[0] - pose.x) * cos + (p[1] - pose.y) * sin) / pose.width;
  const middle = LOWER_INNER.indexOf(14);
  for (const [from, to, by] of [
    [0, middle, 1],
    [LOWER_INNER.length - 1, middle, -1],
  ] as const)
    for (let k = from + by; by > 0 ? k <= to : k >= to; k += by) {
      const [i, outer] = [LOWER_INNER[k]!, LOWER_INNER[k - by]!];
      if (across(landmarks[i]!) < CORNER) break;
      const rise = down(landmarks[outer]!) - down(landmarks[i]!);
      if (rise > 0) landmarks[i] = along(landmarks[i]!, rise);
    }
  // The lip's rings under each inner point keep their order (a pixel apart at least).
  LOWER_INNER.forEach((i, k) =>
    LOWER_LIP_RINGS.forEach((ring, r) => {
      const j = ring[k]!;
      const gap = down(landmarks[j]!) - down(landmarks[i]!);
      if (gap < r + 1) landmarks[j] = along(landmarks[j]!, r + 1 - gap);
    }),
  );
  for (const i of [UPPER_INNER[0]!, UPPER_INNER[UPPER_INNER.length - 1]!]) {
    const run = runUnder(landmarks[i]!);
    if (run) landmarks[i] = along(landmarks[i]!, (run[0] + run[1]) / 2);
  }
}
