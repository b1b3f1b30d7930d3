// How a trained face's mouth goes from shape to shape, the same for both its drawers (rig-face.ts for
// version-1 rigs, rig-mesh.ts for version 2): the shape being heard blends in while every other fades out.
import type { Viseme } from '../../../../protocol/visemes.js';

/** One mouth shape blends into the next over this long. */
export const BLEND_MS = 70;
/**
 * How much earlier than it will be heard a trained face asks for a shape. (Up to 60 ms made up for mouth shapes
 * the room sent up to 100 ms late, voice.ts; with them on time the face led the voice by 30-45 ms at the
 * <video> with it; with 0 its lag was +25 to +35 ms in Firefox; with 10, -20 to +30 ms in the engines' quiet
 * rows, test/realtime/e2e/lip-sync-<engine>.test.ts.)
 */
export const BLEND_LEAD_MS = 10;

/** Moves `weights` a `step` (elapsed / BLEND_MS) towards `target`: it grows to 1, the others fade and go at 0. */
export function blendTowards(weights: Map<Viseme, number>, target: Viseme, step: number): void {
  for (const [viseme, weight] of weights) {
    const next = viseme === target ? Math.min(1, weight + step) : Math.max(0, weight - step);
    if (next > 0) weights.set(viseme, next);
    else weights.delete(viseme);
  }
  if (!weights.has(target)) weights.set(target, Math.min(1, step));
}
