// The jaw of a made mouth, shared by the service that warps it (faces/rig/warp.ts) and the renderers that
// blend one mouth into the next (palkit's rig-face.ts and rig-gl.ts). Between two mouths whose jaws sit
// at different heights a plain cross-fade shows both chins at once (a doubled jaw line); the renderers
// instead move every mouth's jaw, and the idle frame's own, to the blended height first, then mix.
// Coordinates are relative to the mouth's centre in units of half its width (u right, v down).
import type { Viseme } from '../protocol/visemes.js';

/** How far each made mouth's jaw drops at its middle, in mouth half-widths (a footage mouth keeps its frame's chin: 0). */
export const MADE_JAW_DROP: Readonly<Record<Viseme, number>> = {
  rest: 0,
  A: 0.6,
  E: 0.34,
  I: 0.2,
  O: 0.5,
  U: 0.24,
  M: 0,
  F: 0.1,
  L: 0.24,
  S: 0.08,
};

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** Where a made mouth's patch is opaque (the jaw moves inside it) and where it fades to the frame underneath. */
export const PATCH = { x: 1.75, top: 1.0, bottom: 2.6, fade: 0.35 };

/** The patch's alpha at (u, v): 1 over the mouth and jaw, 0 towards the cell's edge (smooth in between). */
export function patchAlpha(u: number, v: number): number {
  const outX = Math.max(0, Math.abs(u) - PATCH.x);
  const outY = Math.max(0, v < 0 ? -v - PATCH.top : v - PATCH.bottom);
  return 1 - smooth(0, PATCH.fade, Math.hypot(outX, outY));
}

const slope = (e0: number, e1: number, x: number) => {
  const t = (x - e0) / (e1 - e0);
  return t <= 0 || t >= 1 ? 0 : (6 * t * (1 - t)) / (e1 - e0);
};

/** Below the chin the jaw's move fades out over these heights (half-widths); the made warp is still past them. */
export const JAW_STILL = { from: 1.7, to: 2.7 };

/**
 * How much of a jaw move a point at height v takes while blending: none above the lips, rising over the lower
 * lip to the whole move at the chin, none again past it (where the made warp is still). The rise is gentle
 * enough (slope ≤ 1.5 per half-width) that a move of up to 0.6 half-widths never folds the image.
 */
export function jawBlendShare(v: number): number {
  return smooth(0, 1, v) * (1 - smooth(JAW_STILL.from, JAW_STILL.to, v));
}

/** How fast jawBlendShare changes with v (its derivative). */
function jawBlendSlope(v: number): number {
  return slope(0, 1, v) * (1 - smooth(JAW_STILL.from, JAW_STILL.to, v)) - smooth(0, 1, v) * slope(JAW_STILL.from, JAW_STILL.to, v);
}

/**
 * Where a mouth whose jaw drops by `drop` shows the point that the blended face, its jaw at `jaw`, shows at
 * height v (`side`: jawSideShare there). A made mouth at drop d shows at height x the resting point
 * x − d·side·share(x); the blend shows at v the resting point c = v − jaw·side·share(v); so x solves
 * x − d·side·share(x) = c (Newton's method from the first-order guess: four steps leave under a
 * thousandth of a half-width, the map's slope staying above 0.1). rig-gl.ts does the same in its shader.
 */
export function jawSource(v: number, side: number, drop: number, jaw: number): number {
  const c = v - jaw * side * jawBlendShare(v);
  let x = v - (jaw - drop) * side * jawBlendShare(v);
  for (let i = 0; i < 4; i++) x -= (x - drop * side * jawBlendShare(x) - c) / (1 - drop * side * jawBlendSlope(x));
  return x;
}

/** Where the jaw stops sideways (half-widths from the middle): it moves whole within `whole`, not at all past `still`, as the made warp moves it. */
export const JAW_SIDES = { whole: 1.05, still: 2.1 };

/** How much of a jaw move a point `u` half-widths from the middle takes (the cheeks beside the jaw stay). */
export function jawSideShare(u: number): number {
  return 1 - smooth(JAW_SIDES.whole, JAW_SIDES.still, Math.abs(u));
}

/** The jaw drop of a viseme's mouth in a rig: made mouths by the table, footage mouths none. */
export function jawDropOf(viseme: Viseme, source: 'footage' | 'warp'): number {
  return source === 'warp' ? MADE_JAW_DROP[viseme] : 0;
}

/**
 * Where the jaw stands in a mix of mouths: each shape's drop by its weight (rest's weight is the idle frame's
 * own mouth, drop 0), in mouth half-widths.
 */
export function blendedJaw(weights: ReadonlyMap<Viseme, number>, dropOf: (viseme: Viseme) => number): number {
  let sum = 0;
  let total = 0;
  for (const [viseme, weight] of weights) {
    if (weight <= 0) continue;
    total += weight;
    if (viseme !== 'rest') sum += weight * dropOf(viseme);
  }
  return total > 0 ? sum / total : 0;
}

/**
 * Whether the mix shows jaws at different heights (then they are moved to `jaw` before mixing); a single
 * shape showing alone, or shapes whose jaws agree, are drawn as they are.
 */
export function jawsDiffer(weights: ReadonlyMap<Viseme, number>, jaw: number, dropOf: (viseme: Viseme) => number): boolean {
  for (const [viseme, weight] of weights) if (weight > 0 && (viseme === 'rest' ? 0 : dropOf(viseme)) !== jaw) return true;
  return false;
}
