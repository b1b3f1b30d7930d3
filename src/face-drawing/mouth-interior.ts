// The inside of the mouth while one mouth shape blends into the next, shared by the renderers (jaw-mix.ts on
// a 2D canvas, in the browser and the generated videos; palkit's rig-gl.ts in its shader). A plain cross-fade
// of an open mouth with another shows its teeth and its dark interior at half contrast over the other's lips
// (grey teeth, a washed-out opening) on each in-between frame — at 25 frames a second a 70 ms blend is one
// or two frames, each of which has to look like a mouth. So inside the opening, where the mouths disagree
// (teeth or dark in one, lips in another), one mouth shows alone: the one with the highest weight, weighted
// towards the more open one (an opening mouth shows its interior as the jaw drops, in an opening the jaw
// move keeps small). Where they agree (skin, lips moved alike) and outside the opening they cross-fade.
// Coordinates are relative to the mouth's centre in units of half its width (u right, v down), in the
// mouth image's own cell (before its jaw is moved): the opening moves with its mouth.
import { MADE_JAW_DROP } from './jaw.js';
import { VISEMES, type Viseme } from '../protocol/visemes.js';

export const INTERIOR = {
  /** A mouth's pull when picking which one shows inside: its weight times (bias + its opening). */
  bias: 0.1,
  /** Colour difference (0–1, the largest channel's) under which the mouths cross-fade, and over which one shows alone. */
  agree: 0.06,
  disagree: 0.16,
  /** The opening's top (the lip line, where the upper teeth begin), soft over this much across it; how softly it ends above the dropped lower lip. */
  top: 0,
  topFade: 0.1,
  fade: 0.15,
};

/**
 * How far a viseme's mouth opens (half-widths): the made mouth's jaw drop; a footage mouth of the same viseme
 * opens about as far (its own frame's chin stays, its lower lip moves within the patch).
 */
export function openingOf(viseme: Viseme): number {
  return MADE_JAW_DROP[viseme];
}

/** The viseme whose mouth opens widest (its jaw moves furthest, and the opening's interior is drawn). */
export function widestOpen(): Viseme {
  return VISEMES.reduce((widest, v) => (openingOf(v) > openingOf(widest) ? v : widest));
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/**
 * Where a mouth opening by `opening` may show its interior, 0…1, at (u, v) of its own image: between the lips,
 * from the lip line down to the dropped lower lip (soft inside both edges), deepest in the middle and closing
 * towards the corners (the made warp's lens, faces/rig/warp.ts).
 */
export function openingZone(u: number, v: number, opening: number): number {
  return openingZoneAt(openingLens(u), v, opening);
}

/** How tall the opening is at `u`, as a share of its middle's (the warp's lens). */
export function openingLens(u: number): number {
  return Math.max(0, 1 - u * u) ** 0.6;
}

/** openingZone with the lens at u already taken (a renderer takes it once per column). */
export function openingZoneAt(lens: number, v: number, opening: number): number {
  if (opening <= 0) return 0;
  const bottom = opening * lens;
  return (
    smooth(INTERIOR.top - INTERIOR.topFade / 2, INTERIOR.top + INTERIOR.topFade / 2, v) *
    (1 - smooth(bottom - INTERIOR.fade, bottom, v)) *
    smooth(0, 0.1, lens)
  );
}

/** A source's pull when picking the one that shows inside the opening (the idle frame's own mouth: opening 0). */
export function interiorPull(weight: number, opening: number): number {
  return weight * (INTERIOR.bias + opening);
}

/**
 * How much of the picked mouth shows alone at a pixel (0: the cross-fade), from the opening zone there and the
 * largest channel difference (0–1) between the picked mouth and the mix of the others.
 */
export function interiorShare(zone: number, difference: number): number {
  return zone * smooth(INTERIOR.agree, INTERIOR.disagree, difference);
}
