// (c)'s second reading of the chin, from the pixels rather than FaceMesh's chin point: on a face whose chin's edge
// is soft (the clip face: blurred footage, neck skin of the chin's own tone below it) FaceMesh keeps its chin
// point near the face's usual shape and reads a third of the drop a person sees. Here the lower face's luma
// profile along the face's axis (rest-aligned by (a)'s refined similarity) is laid on the rest's: the shift that
// matches the chin's band — the skin above the chin, its edge and what lies just below — is the chin's drop.
// A jaw that carries the chin shifts that band; lips that part over a frozen chin leave it where it was.
import { applySimilarity, quantile, sample, type Plane, type Point, type Similarity } from './image.js';
import { NORMAL_HEIGHT, type Rest } from './measures.js';
import { CHIN, FOREHEAD } from './regions.js';

/** A band matched along the face's axis (face heights from its landmark). */
export interface Band {
  landmark: number;
  from: number;
  to: number;
}
/** The chin's: from above the chin to just below it. */
export const CHIN_BAND: Band = { landmark: CHIN, from: -0.07, to: 0.04 };
/**
 * The lower lip's: its lower half and the skin below it, long enough to be told from the chin's edge and the
 * teeth (a band reaching 4 % below the lip took the chin's shadow or the teeth for the lip in a fifth of a
 * Firefox clip row's frames).
 */
export const LOWER_LIP_BAND: Band = { landmark: 17, from: -0.03, to: 0.07 };
/** Across the axis, the profile averages this far either side (face heights): the chin's breadth. */
const HALF_WIDTH = 0.08;
/** The drops tried (face heights): a chin rises a little with a closing mouth, drops at most a fifth of the face. */
const REACH = { from: -0.04, to: 0.2 };
/** Profile step (grid pixels; the grid's face is NORMAL_HEIGHT tall). */
const STEP = 0.5;
/** A pixel's difference counts up to this many levels (a local change weighs no more than an edge's). */
const CAP = 40;

/** The rest's chin profile, made once per rest frame. */
export interface ChinProfile {
  /** Grid points: the rest chin, the axis (unit, grid pixels) and across it. */
  chin: Point;
  axis: Point;
  across: Point;
  /** The rest's luma along the axis from `which.from` to `which.to`, STEP apart. */
  band: Float32Array;
  which: Band;
}

/** Mean luma across the axis at each step along it, from `from` to `to` (grid pixels from the chin). */
function profile(luma: Plane, gridToImage: Similarity, p: ChinProfile, from: number, to: number): Float32Array {
  const n = Math.floor((to - from) / STEP) + 1;
  const out = new Float32Array(n);
  const half = HALF_WIDTH * NORMAL_HEIGHT;
  for (let k = 0; k < n; k++) {
    const t = from + k * STEP;
    let sum = 0,
      count = 0;
    for (let s = -half; s <= half; s += 1) {
      const g: Point = [p.chin[0] + t * p.axis[0] + s * p.across[0], p.chin[1] + t * p.axis[1] + s * p.across[1]];
      const [x, y] = applySimilarity(gridToImage, g);
      const v = sample(luma, x, y);
      if (!Number.isNaN(v)) {
        sum += v;
        count++;
      }
    }
    out[k] = count > half ? sum / count : NaN;
  }
  return out;
}

/** The rest's chin band, in the rest grid's coordinates. */
export function chinProfile(rest: Rest, restLuma: Plane, which = CHIN_BAND): ChinProfile {
  const { a, b, tx, ty } = rest.gridToRest,
    det = a * a + b * b;
  const toGrid = ([x, y]: Point): Point => [(a * (x - tx) + b * (y - ty)) / det, (-b * (x - tx) + a * (y - ty)) / det];
  const chin = toGrid(rest.seen.mesh[which.landmark]!),
    bottom = toGrid(rest.seen.mesh[CHIN]!),
    forehead = toGrid(rest.seen.mesh[FOREHEAD]!);
  const length = Math.hypot(bottom[0] - forehead[0], bottom[1] - forehead[1]);
  const axis: Point = [(bottom[0] - forehead[0]) / length, (bottom[1] - forehead[1]) / length];
  const p: ChinProfile = { chin, axis, across: [-axis[1], axis[0]], band: new Float32Array(), which };
  p.band = profile(restLuma, rest.gridToRest, p, which.from * NORMAL_HEIGHT, which.to * NORMAL_HEIGHT);
  return p;
}

/**
 * How far the chin's band has moved down the face's axis (rest face heights) in a frame whose luma is laid on
 * the rest grid by `gridToFrame` ((a)'s refined alignment): the shift with the least mean capped absolute
 * difference from the rest's band, the overall light change removed, refined to a fraction of a step.
 */
export function chinEdgeDrop(p: ChinProfile, luma: Plane, gridToFrame: Similarity): number {
  const H = NORMAL_HEIGHT;
  const from = (p.which.from + REACH.from) * H,
    to = (p.which.to + REACH.to) * H;
  const seen = profile(luma, gridToFrame, p, from, to);
  const shifts = Math.floor(((REACH.to - REACH.from) * H) / STEP) + 1;
  const costs = new Float64Array(shifts).fill(Infinity);
  const diffs: number[] = [];
  for (let k = 0; k < shifts; k++) {
    diffs.length = 0;
    for (let i = 0; i < p.band.length; i++) {
      const v = seen[k + i]!,
        r = p.band[i]!;
      if (!Number.isNaN(v) && !Number.isNaN(r)) diffs.push(v - r);
    }
    if (diffs.length < p.band.length * 0.8) continue;
    const offset = quantile(diffs, 0.5);
    costs[k] = diffs.reduce((s, d) => s + Math.min(CAP, Math.abs(d - offset)), 0) / diffs.length;
  }
  let best = 0;
  for (let k = 1; k < shifts; k++) if (costs[k]! < costs[best]!) best = k;
  // No match inside the reach (its best at either end): the band was not found, the frame is not read.
  if (!Number.isFinite(costs[best]!) || best === 0 || best === shifts - 1) return NaN;
  // A parabola through the best shift and its neighbours: the minimum between steps.
  let fraction = 0;
  if (Number.isFinite(costs[best - 1]!) && Number.isFinite(costs[best + 1]!)) {
    const [l, c, r] = [costs[best - 1]!, costs[best]!, costs[best + 1]!];
    const curve = l - 2 * c + r;
    if (curve > 1e-9) fraction = Math.max(-0.5, Math.min(0.5, (l - r) / (2 * curve)));
  }
  return (REACH.from * H + (best + fraction) * STEP) / H;
}
