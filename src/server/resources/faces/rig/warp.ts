// A viseme the footage lacks (every viseme, for a photo) is made from the resting mouth by a smooth
// warp, drawn as a real mouth opens: the jaw drops (lower lip, chin and the skin between move down
// together, the lip corners stay), the corners stretch or draw together (spread or rounded lips), or the
// lips press. Between the parted lips the mouth's interior is shaded: dark in its depth, warmer at the
// lips, a hint of upper teeth where the shape shows them (unless the resting mouth already shows teeth)
// and the tongue low in the opening for some vowels. Lips and skin are resampled from the resting mouth,
// so they keep their texture and colour. The patch carries its own alpha: opaque where anything moved,
// fading to nothing before the cell's edge, where the warp is already the identity (no seam, no rectangle).
// Inverse mapping per pixel, coordinates relative to the mouth's centre in units of half its width.
import { ImageData } from '@napi-rs/canvas';
import { JAW_SIDES, JAW_STILL, MADE_JAW_DROP, patchAlpha } from '../../../../face-drawing/jaw.js';
import type { Viseme } from '../../../../protocol/visemes.js';
import type { LipLine } from './mouth.js';

interface Shape {
  /** Jaw drop at the centre, in mouth half-widths. */
  drop: number;
  /** Horizontal scale of the mouth (> 1 spread, < 1 rounded). */
  stretch: number;
  /** Share of the opening's top the upper teeth fill (at most TEETH_HEIGHT). */
  teeth: number;
  /** Share of the opening's bottom the tongue fills. */
  tongue: number;
  /** Lips pressed together: their thickness shrinks by this share. */
  press: number;
}

/** The jaw drops are shared with the renderers, which blend one mouth's jaw into the next (face-drawing/jaw.ts). */
const SHAPES: Record<Viseme, Shape> = {
  rest: { drop: MADE_JAW_DROP.rest, stretch: 1, teeth: 0, tongue: 0, press: 0 },
  A: { drop: MADE_JAW_DROP.A, stretch: 1, teeth: 0.3, tongue: 0.3, press: 0 },
  E: { drop: MADE_JAW_DROP.E, stretch: 1.08, teeth: 0.45, tongue: 0.25, press: 0 },
  I: { drop: MADE_JAW_DROP.I, stretch: 1.12, teeth: 0.6, tongue: 0, press: 0 },
  O: { drop: MADE_JAW_DROP.O, stretch: 0.8, teeth: 0.12, tongue: 0.2, press: 0 },
  U: { drop: MADE_JAW_DROP.U, stretch: 0.7, teeth: 0, tongue: 0, press: 0 },
  M: { drop: MADE_JAW_DROP.M, stretch: 0.98, teeth: 0, tongue: 0, press: 0.35 },
  F: { drop: MADE_JAW_DROP.F, stretch: 1.02, teeth: 0.9, tongue: 0, press: 0.15 },
  L: { drop: MADE_JAW_DROP.L, stretch: 1, teeth: 0.4, tongue: 0.55, press: 0 },
  S: { drop: MADE_JAW_DROP.S, stretch: 1.06, teeth: 0.85, tongue: 0, press: 0 },
};

/** Where the jaw moves whole (the chin sits about one mouth width below the mouth) and where it stops. */
const JAW = { fullTo: JAW_STILL.from, stillAt: JAW_STILL.to, halfWidth: JAW_SIDES.whole, edge: JAW_SIDES.still };
/** Upper teeth show at most this tall (half-widths). */
const TEETH_HEIGHT = 0.24;
/** Soft edge where the opening meets the lips (half-widths). */
const EDGE = 0.05;
const DEEP = [20, 6, 8];
const WARM = [84, 32, 34];
const TEETH = [228, 222, 210];
const TONGUE = [150, 66, 70];

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};
const mix = (a: number, b: number, t: number) => a + (b - a) * t;

function sample(src: ImageData, x: number, y: number, out: Uint8ClampedArray, o: number): void {
  const { width, height, data } = src;
  const x0 = Math.max(0, Math.min(width - 2, Math.floor(x)));
  const y0 = Math.max(0, Math.min(height - 2, Math.floor(y)));
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  for (let c = 0; c < 3; c++) {
    const i = (y0 * width + x0) * 4 + c;
    const top = data[i]! * (1 - fx) + data[i + 4]! * fx;
    const bottom = data[i + width * 4]! * (1 - fx) + data[i + width * 4 + 4]! * fx;
    out[o + c] = top * (1 - fy) + bottom * fy;
  }
}

/** The patch's alpha (shared with the renderers, which feather the idle frame's moved jaw by it). */
export const warpAlpha = patchAlpha;

/** How far the jaw moves a point down, as a share of the drop: a lens between the lips, the whole jaw below. */
function jawShare(u: number, v: number): number {
  const lens = Math.max(0, 1 - u * u) ** 0.6;
  const broad = 1 - smooth(JAW.halfWidth, JAW.edge, Math.abs(u));
  const below = smooth(0, 0.9, v);
  return mix(lens, Math.max(lens, broad), below) * (1 - smooth(JAW.fullTo, JAW.stillAt, v));
}

/** Whether the resting mouth already shows its upper teeth (most of the middle just above the lip line is bright and grey): then none are drawn. */
function showsTeeth(rest: ImageData, a: number, lipLine: number): boolean {
  let bright = 0;
  let all = 0;
  const y = Math.round(rest.height / 2 + (lipLine - 0.1) * a);
  for (let x = Math.round(rest.width / 2 - 0.5 * a); x <= rest.width / 2 + 0.5 * a; x++, all++) {
    const i = (y * rest.width + x) * 4;
    const [r, g, b] = [rest.data[i]!, rest.data[i + 1]!, rest.data[i + 2]!];
    if (r + g + b > 450 && Math.max(r, g, b) - Math.min(r, g, b) < 70) bright++;
  }
  return bright > all / 2;
}

/** `lips`: where the resting lips meet (mouth widths below the centre); the lips part along that curve. */
export function warpMouth(rest: ImageData, viseme: Viseme, mouthWidth: number, lips: LipLine = { middle: 0, corners: 0 }): ImageData {
  const shape = SHAPES[viseme];
  const { width, height } = rest;
  const out = new Uint8ClampedArray(width * height * 4);
  const a = mouthWidth / 2;
  const cx = width / 2;
  const cy = height / 2;
  // The lip line in half-widths, a parabola through the middle and the corners.
  const line = (u: number) => 2 * (lips.middle + (lips.corners - lips.middle) * Math.min(1, u * u));
  const teethShown = showsTeeth(rest, a, line(0));
  const lip = new Uint8ClampedArray(4);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const u = (px + 0.5 - cx) / a;
      const v = (py + 0.5 - cy) / a;
      const o = (py * width + px) * 4;
      const alpha = warpAlpha(u, v);
      out[o + 3] = Math.round(255 * alpha);
      // Every move has faded out where the alpha is half or less: where the frame shows through, the patch is the resting mouth.
      const moves = smooth(0.5, 1, alpha);
      // Spread or rounding, strongest on the lips' line, fading above and below.
      const s = 1 + (shape.stretch - 1) * Math.exp(-v * v * 1.5) * Math.exp(-u * u * 0.25) * moves;
      const su = u / s;
      // Below the lip line (w > 0) the jaw moves down.
      const l = line(su);
      const w = v - l;
      let sv = v;
      // Pressed lips: the band around the lip line is drawn from a wider band (thinner lips).
      if (shape.press) sv = l + w * (1 + shape.press * Math.exp(-w * w * 8) * moves);
      if (w > 0 && shape.drop) {
        const d = shape.drop * jawShare(su, w) * moves;
        sv = v - d;
        if (sv - l < EDGE && d > 0.01) {
          // In the opening, or the lips' inner edge beside it: the two blend over EDGE (no drawn outline).
          sample(rest, cx + su * a - 0.5, cy + Math.max(l, sv) * a - 0.5, lip, 0);
          const inside = Math.min(1 - smooth(-EDGE, EDGE, sv - l), smooth(0, EDGE, w), smooth(0.01, 0.08, d));
          if (inside > 0) {
            paintInterior(out, o, shape, su, Math.min(1, w / d), d, teethShown);
            for (let c = 0; c < 3; c++) out[o + c] = mix(lip[c]!, out[o + c]!, inside);
            continue;
          }
        }
      }
      sample(rest, cx + su * a - 0.5, cy + sv * a - 0.5, out, o);
    }
  }
  return new ImageData(out, width, height);
}

/** One pixel of the opening: `t` 0 at the upper lip, 1 at the lower; `gap` the opening's height there. */
function paintInterior(out: Uint8ClampedArray, o: number, shape: Shape, u: number, t: number, gap: number, teethShown: boolean): void {
  // Darkest in the middle of the opening and towards the throat; warmer where the lips meet it and at the corners.
  // The upper lip and teeth shade the top; the dark is deepest a little above the middle.
  const depth = Math.sin(Math.PI * Math.min(1, t * 0.85 + 0.1)) ** 0.6 * (1 - 0.5 * Math.min(1, u * u));
  let rgb = [0, 1, 2].map((c) => mix(WARM[c]!, DEEP[c]!, depth));
  const tongueTop = 1 - shape.tongue;
  if (shape.tongue && t > tongueTop) {
    // The tongue: a low rounded hump in the opening's dark, dimmer to the sides and under the lower lip.
    const hump = tongueTop + (1 - tongueTop) * 0.5 * u * u;
    if (t > hump) {
      const lit = 1 - 0.3 * smooth(0.6, 1, t) - 0.35 * Math.min(1, u * u * 1.5);
      rgb = [0, 1, 2].map((c) => mix(rgb[c]!, TONGUE[c]! * lit, 0.85 * smooth(hump, hump + 0.2, t)));
    }
  }
  if (shape.teeth && !teethShown) {
    // Upper teeth: a band under the upper lip, shaded towards the corners and between teeth, softly ending in the dark.
    const teethBottom = Math.min(shape.teeth, TEETH_HEIGHT / Math.max(gap, 1e-3));
    const cover = 1 - smooth(teethBottom * 0.7, teethBottom, t);
    const shade = (0.96 - 0.5 * Math.min(1, u * u)) * (1 - 0.08 * Math.cos(Math.PI * 2 * (u / 0.28)) ** 8);
    rgb = [0, 1, 2].map((c) => mix(rgb[c]!, TEETH[c]! * shade, cover * 0.95));
  }
  out[o] = rgb[0]!;
  out[o + 1] = rgb[1]!;
  out[o + 2] = rgb[2]!;
}
