// (a)'s alignment made good by the pixels: FaceMesh's landmarks place the rest frame on a frame to a pixel or two,
// and on an open mouth they read the whole face a few per cent larger (its outline and forehead spread with the
// jaw: 3-5 % on the clip face's frames, whose pixels above the lips were identical), which at the temples puts the
// hair's edge 3-4 grid pixels off, past the cells' slack. So the landmarks' similarity is refined, within the
// landmarks' own error, to the one that best lays the frame's upper face on the rest's. A change made in one
// place (pasted brows, a lid's lashes) cannot be undone by moving the whole face, so it still shows.
import { composeSimilarity, quantile, sample, type Plane, type Similarity } from './image.js';

/** How far the refinement may leave the landmarks' similarity: scale, turn (radians), shift (grid pixels). */
export const REFINE_REACH = { scale: 0.06, angle: (2 * Math.PI) / 180, shift: 4 };
/** A pixel's difference counts up to this many levels in the fit (a local change weighs no more than an edge's). */
const CAP = 40;

/**
 * `gridToFrame` moved (about the region's centre, in grid pixels) to where the frame's luma best matches `rest`
 * over `region`: the mean capped absolute difference, the overall light change removed, by coordinate descent.
 */
export function refineAlignment(rest: Plane, region: Plane, frame: Plane, gridToFrame: Similarity): Similarity {
  const spots: number[] = [];
  let cx = 0,
    cy = 0;
  for (let y = 0; y < rest.height; y += 2)
    for (let x = 0; x < rest.width; x += 2)
      if (region.data[y * rest.width + x]) {
        spots.push(x, y);
        cx += x;
        cy += y;
      }
  const count = spots.length / 2;
  if (count < 50) return gridToFrame;
  [cx, cy] = [cx / count, cy / count];
  const at = ([scale, angle, dx, dy]: number[]): Similarity => {
    const [a, b] = [scale! * Math.cos(angle!), scale! * Math.sin(angle!)];
    return composeSimilarity(gridToFrame, { a, b, tx: cx + dx! - (a * cx - b * cy), ty: cy + dy! - (b * cx + a * cy) });
  };
  const diffs = new Float32Array(count);
  const cost = (params: number[]): number => {
    const s = at(params);
    let n = 0;
    for (let k = 0; k < spots.length; k += 2) {
      const [x, y] = [spots[k]!, spots[k + 1]!];
      const v = sample(frame, s.a * x - s.b * y + s.tx, s.b * x + s.a * y + s.ty);
      if (!Number.isNaN(v)) diffs[n++] = v - rest.data[y * rest.width + x]!;
    }
    if (n < count * 0.9) return Infinity;
    const used = diffs.subarray(0, n);
    const offset = quantile(used, 0.5);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += Math.min(CAP, Math.abs(used[i]! - offset));
    return sum / n;
  };
  const limits = [REFINE_REACH.scale, REFINE_REACH.angle, REFINE_REACH.shift, REFINE_REACH.shift];
  const params = [1, 0, 0, 0];
  let best = cost(params);
  let steps = [0.01, 0.004, 1, 1];
  for (let round = 0; round < 4; round++) {
    let improved = true;
    while (improved) {
      improved = false;
      for (let p = 0; p < 4; p++) {
        for (const sign of [1, -1]) {
          const tried = [...params];
          tried[p] = tried[p]! + sign * steps[p]!;
          if (Math.abs(tried[p]! - (p === 0 ? 1 : 0)) > limits[p]! + 1e-9) continue;
          const c = cost(tried);
          if (c < best) {
            best = c;
            params[p] = tried[p]!;
            improved = true;
          }
        }
      }
    }
    steps = steps.map((s) => s / 2);
  }
  return at(params);
}
