// FaceMesh's inner lip points on a smile that shows its teeth sit a pixel or a few off the lips' real edge,
// often on the teeth: a lip stretched over them (pressed lips, a closing jaw) then carries white streaks. Each
// inner lip point is moved along the mouth's vertical to the strongest step between lip and teeth near it
// (the teeth brighter), found in the frame's own pixels. A mouth without teeth showing is left as it is.
import type { MouthPose } from '../../../../protocol/faces/rig.js';
import { LOWER_INNER, UPPER_INNER } from './mesh-shapes.js';

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
