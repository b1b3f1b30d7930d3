// A version-2 rig's mouth inside (face-drawing/mesh.ts INSIDE: three cells drawn in the opening as the jaw
// drops): the throat, dark in its depth and warmer towards the lips; the upper teeth hanging from the upper lip;
// the lower teeth and the tongue standing on the lower lip, its inner edge in front of them. Where the resting
// face shows its teeth (a smile), the teeth are its own pixels, cut along the lip line; otherwise a tooth row is
// drawn, lit like the face's skin.
import { ImageData } from '@napi-rs/canvas';
import { INSIDE } from '../../../../face-drawing/mesh.js';
import type { MouthPose } from '../../../../protocol/faces/rig.js';
import { inside } from './mesh-shapes.js';

type Point = [number, number];

// The throat's depth is a dim warm brown, never black: a lit face's open mouth is dark red-brown on camera (luma
// 45-60 where skin is ~170), and a near-black hole reads as a cut-out (issue 51: 18 % of it a flat void). Not
// lip-red: FaceMesh took a maroon (84, 31, 35) inside for lower lip and read a half-open mouth as closed. Its
// blue under its green (warm): at blue = green it read purple-brown behind the teeth.
const DEEP = [74, 37, 30];
const WARM = [132, 60, 50];
const TEETH = [236, 228, 212];
const GUM = [176, 86, 92];
const TONGUE = [172, 76, 82];
/** The lower lip's wet inner edge, rolled over the lower teeth's base: the lip's colour all along the opening's floor. */
const LIP = [192, 98, 96];
/** How tall the lower lip's inner edge shows over the teeth, in mouth widths. */
const LIP_BAND = 0.065;
/** Boundaries between teeth, in mouth widths from the middle (incisors, laterals, canines, premolars). */
const GAPS = [0, 0.1, 0.185, 0.26, 0.33, 0.39];

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

export interface RestMouth {
  /** The resting frame's RGBA. */
  rgba: Uint8ClampedArray;
  width: number;
  height: number;
  pose: MouthPose;
  /** The opening's outline at rest (frame pixels), and its upper and lower middle points. */
  hole: Point[];
  upper: Point;
  lower: Point;
  /** A point on each cheek (the skin the generated teeth are lit by). */
  cheeks: Point[];
}

/** The three cells side by side (INSIDE.width × 3 by INSIDE.height, RGBA). */
export function mouthInside(rest: RestMouth): { image: ImageData; ownTeeth: boolean } {
  const { width: W, height: H } = INSIDE;
  const out = new Uint8ClampedArray(W * 3 * H * 4);
  const light = skinLight(rest);
  const own = showsTeeth(rest);
  const put = (cell: number, x: number, y: number, rgb: readonly number[], alpha: number) => {
    const o = (y * W * 3 + cell * W + x) * 4;
    out[o] = rgb[0]!;
    out[o + 1] = rgb[1]!;
    out[o + 2] = rgb[2]!;
    out[o + 3] = Math.round(255 * alpha);
  };
  const lit = (rgb: readonly number[], k: number) => rgb.map((c) => Math.min(255, c * light * k));
  // The mouth's inside is lit by the light that reaches into it, not by the skin's own tone: a darker face's
  // throat is barely darker (and must not sink into the flat black the instrument calls a void).
  const throatLight = 0.78 + 0.22 * Math.min(1, light);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const u = (x + 0.5 - W / 2) / INSIDE.scale;
      // The throat: deepest a little above the middle (the palate's shadow under the upper teeth), warmer
      // towards the lips and the cheeks' inner walls (no texture: a faint ridge pattern read as stripes at 4x).
      const vy = (y + 0.5 - H / 2) / INSIDE.scale;
      const r = Math.hypot(u / 0.5, (vy + 0.04) / 0.33);
      put(
        0,
        x,
        y,
        DEEP.map((c, i) => Math.min(255, (c + (WARM[i]! - c) * smooth(0.45, 1.4, r)) * throatLight)),
        1,
      );
      // Generated teeth: upper ones hang from the lip (gum above), lower ones stand behind the lower lip, the tongue behind them.
      const w1 = (y + 0.5 - INSIDE.upperRow) / INSIDE.scale;
      const w2 = (y + 0.5 - INSIDE.lowerRow) / INSIDE.scale;
      if (!own) put(1, x, y, ...upperTooth(u, w1, lit));
      put(2, x, y, ...lowerTeeth(u, w2, lit));
    }
  }
  if (own) ownTeeth(rest, out);
  return { image: new ImageData(out, W * 3, H), ownTeeth: own };
}

function toothShade(u: number, reach: number): number {
  let gap = 1;
  for (const g of GAPS) gap = Math.min(gap, 1 - 0.22 * Math.exp(-(((Math.abs(u) - g) / 0.007) ** 2)));
  return (1 - 0.55 * (u / reach) ** 2) * gap;
}

function upperTooth(u: number, w: number, lit: (rgb: readonly number[], k: number) => number[]): [number[], number] {
  const reach = 0.44;
  if (Math.abs(u) > reach) return [[0, 0, 0], 0];
  const side = 1 - smooth(reach - 0.04, reach, Math.abs(u));
  if (w < 0) return [lit(GUM, 0.8 * (1 - 0.4 * (u / reach) ** 2)), side * smooth(-0.3, -0.22, w)];
  const length = 0.11 * (1 - 0.55 * (u / reach) ** 2);
  const shade = toothShade(u, reach) * (1 - 0.18 * smooth(0.3 * length, length, w));
  return [lit(TEETH, shade), side * (1 - smooth(length - 0.01, length + 0.005, w))];
}

function lowerTeeth(u: number, w: number, lit: (rgb: readonly number[], k: number) => number[]): [number[], number] {
  // In front of the teeth, the lower lip's inner edge: a band rising with the opening's floor towards the
  // corners (a blurred clip's own lower lip is skin-pale, and the opening's floor read as teeth on skin).
  const floor = -0.6 * u * u;
  const bandTop = floor - LIP_BAND;
  if (Math.abs(u) < 0.46 && w > bandTop && w < floor + 0.03) {
    const alpha = smooth(bandTop, bandTop + 0.015, w) * (1 - smooth(0.4, 0.46, Math.abs(u)));
    if (alpha > 0.02) return [lit(LIP, 0.9 + 0.1 * smooth(bandTop, floor, w)), alpha];
  }
  const reach = 0.34;
  const length = 0.085 * (1 - 0.6 * (u / reach) ** 2);
  if (Math.abs(u) < reach && w <= 0 && w > -length - 0.005) {
    const alpha = (1 - smooth(reach - 0.04, reach, Math.abs(u))) * smooth(-length - 0.005, -length + 0.008, w);
    if (alpha > 0.02) return [lit(TEETH, 0.92 * toothShade(u, reach)), alpha];
  }
  // The tongue: a low hump behind the lower teeth, dimmer towards its sides and back.
  // (Broad and high enough to fill the lower half of a wide opening, as a resting tongue does.)
  const r = Math.hypot(u / 0.36, (w + 0.07) / 0.16);
  if (r < 1) {
    // Lit on its front and top, its back edge falling into the throat's shadow.
    const front = smooth(-0.24, 0.02, w);
    return [lit(TONGUE, (0.62 + 0.3 * front) * (1 - 0.25 * r * r)), 1 - smooth(0.75, 1, r)];
  }
  return [[0, 0, 0], 0];
}

/** The skin's brightness at the cheeks against a typical face's (the teeth and throat are lit by it). */
function skinLight(rest: RestMouth): number {
  const lumas: number[] = [];
  for (const [cx, cy] of rest.cheeks) {
    for (let dy = -4; dy <= 4; dy++)
      for (let dx = -4; dx <= 4; dx++) {
        const [x, y] = [Math.round(cx + dx), Math.round(cy + dy)];
        if (x < 0 || y < 0 || x >= rest.width || y >= rest.height) continue;
        const o = (y * rest.width + x) * 4;
        lumas.push(0.299 * rest.rgba[o]! + 0.587 * rest.rgba[o + 1]! + 0.114 * rest.rgba[o + 2]!);
      }
  }
  lumas.sort((a, b) => a - b);
  const median = lumas[Math.floor(lumas.length / 2)] ?? 160;
  return Math.max(0.6, Math.min(1.08, median / 165));
}

/** Whether the resting mouth shows teeth: an opening of some size, mostly bright and grey inside. */
function showsTeeth(rest: RestMouth): boolean {
  let [all, bright] = [0, 0];
  for (const [x, y] of holePixels(rest)) {
    const o = (y * rest.width + x) * 4;
    const [r, g, b] = [rest.rgba[o]!, rest.rgba[o + 1]!, rest.rgba[o + 2]!];
    all++;
    if (r + g + b > 390 && Math.max(r, g, b) - Math.min(r, g, b) < 75) bright++;
  }
  return all >= 0.02 * rest.pose.width ** 2 && bright > 0.35 * all;
}

function holePixels(rest: RestMouth): Point[] {
  const xs = rest.hole.map((p) => p[0]);
  const ys = rest.hole.map((p) => p[1]);
  const pts: Point[] = [];
  for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++)
    for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x++)
      if (inside([x + 0.5, y + 0.5], rest.hole)) pts.push([x, y]);
  return pts;
}

/**
 * The resting mouth's own teeth into cells 1 and 2, each in its cell's axes (the upper ones from the upper lip's
 * middle, the lower from the lower's), split at the middle between the lips; above the upper row (and below the
 * lower) each column's last tooth pixel is carried on, so a lifted lip shows more of it, not a gap.
 */
function ownTeeth(rest: RestMouth, out: Uint8ClampedArray): void {
  const { width: W, height: H, scale } = INSIDE;
  const k = rest.pose.width / scale;
  const [cos, sin] = [Math.cos(rest.pose.angle), Math.sin(rest.pose.angle)];
  const mid: Point = [(rest.upper[0] + rest.lower[0]) / 2, (rest.upper[1] + rest.lower[1]) / 2];
  /** The split's row offset from an anchor, in cell pixels along the mouth's vertical. */
  const splitFrom = (anchor: Point) => (-(mid[0] - anchor[0]) * sin + (mid[1] - anchor[1]) * cos) / k;
  const sample = (x: number, y: number): number[] => {
    const [x0, y0] = [Math.max(0, Math.min(rest.width - 1, Math.round(x))), Math.max(0, Math.min(rest.height - 1, Math.round(y)))];
    const o = (y0 * rest.width + x0) * 4;
    return [rest.rgba[o]!, rest.rgba[o + 1]!, rest.rgba[o + 2]!];
  };
  const teeth = toothLuma(rest);
  // A smile shows mostly its upper teeth: all of the opening goes with the upper lip (the lower teeth are drawn).
  for (const [cell, anchor, row] of [[1, rest.upper, INSIDE.upperRow]] as const) {
    const split = splitFrom(anchor) * 3;
    for (let x = 0; x < W; x++) {
      const seen: Array<[number, number[]]> = [];
      for (let y = 0; y < H; y++) {
        const [cu, cv] = [(x + 0.5 - W / 2) * k, (y + 0.5 - row) * k];
        const [fx, fy] = [anchor[0] + cu * cos - cv * sin, anchor[1] + cu * sin + cv * cos];
        const mine = cell === 1 ? y + 0.5 - row <= split : y + 0.5 - row > split;
        if (mine && inside([fx, fy], rest.hole)) seen.push([y, sample(fx, fy)]);
      }
      // Not the dark corners a smile's opening also holds: they showed as brown notches at the ends of the row
      // once the jaw dropped (the throat shows instead, as behind real teeth).
      for (const [y, rgb] of seen) write(out, cell, x, y, rgb, toothLike(rgb, teeth));
      if (!seen.length) continue;
      // Carry the column's outermost tooth pixel beyond the lip a few rows (under a lifted or dropped lip).
      // (From a little inside: the outline's own row may be half lip.)
      const edge = cell === 1 ? Math.min(...seen.map(([y]) => y)) : Math.max(...seen.map(([y]) => y));
      const inner = seen.find(([y]) => y === (cell === 1 ? edge + 2 : edge - 2)) ?? seen.find(([y]) => y === edge)!;
      const edgeRgb = inner[1];
      for (let d = 1; d <= 6; d++) {
        const y = cell === 1 ? edge - d : edge + d;
        if (y < 0 || y >= H) break;
        write(out, cell, x, y, edgeRgb, 1);
      }
      // And down to an incisor's length where the resting lower lip hid the teeth's lower part (a blurred clip's
      // smile shows a thin strip of them, which read as a sliver over a dark hole once the jaw dropped): the
      // column's lowest tooth-bright pixel carried on, a little dimmer towards the biting edge.
      const u = (x + 0.5 - W / 2) / scale;
      if (Math.abs(u) > 0.4) continue;
      const teethRows = seen.filter(([, rgb]) => toothLike(rgb, teeth) > 0.9 && chromaOf(rgb) < 0.3 * Math.max(...rgb));
      if (!teethRows.length) continue;
      const [low, lowRgb] = teethRows.reduce((a, b) => (b[0] > a[0] ? b : a));
      const reach = row + Math.round(INCISOR * scale * (1 - 0.6 * (u / 0.4) ** 2));
      for (let y = low + 1; y <= reach && y < H; y++) {
        const k = 1 - 0.12 * ((y - low) / Math.max(1, reach - low));
        write(
          out,
          cell,
          x,
          y,
          lowRgb.map((c) => c * k),
          1 - smooth(reach - 1.5, reach + 0.5, y),
        );
      }
    }
  }
}

/** How far the upper incisors reach below the upper lip's middle, in mouth widths (generated ones: 0.11). */
const INCISOR = 0.12;

const chromaOf = (rgb: readonly number[]) => Math.max(...rgb) - Math.min(...rgb);

const lumaOf = (rgb: readonly number[]) => 0.299 * rgb[0]! + 0.587 * rgb[1]! + 0.114 * rgb[2]!;

/** The resting opening's teeth brightness: the 80th percentile of its luma. */
function toothLuma(rest: RestMouth): number {
  const lumas = holePixels(rest)
    .map(([x, y]) => {
      const o = (y * rest.width + x) * 4;
      return lumaOf([rest.rgba[o]!, rest.rgba[o + 1]!, rest.rgba[o + 2]!]);
    })
    .sort((a, b) => a - b);
  return lumas[Math.floor(lumas.length * 0.8)] ?? 200;
}

/**
 * How much of a pixel of the opening is kept (1) rather than a dark corner (0), softly. The lip's pixels stay:
 * the upper lip dips into the opening at its middle, and without them a lifted lip showed a dark notch there,
 * like a missing tooth.
 */
function toothLike(rgb: readonly number[], teeth: number): number {
  return smooth(0.35, 0.55, lumaOf(rgb) / teeth);
}

function write(out: Uint8ClampedArray, cell: number, x: number, y: number, rgb: readonly number[], alpha: number): void {
  const o = (y * INSIDE.width * 3 + cell * INSIDE.width + x) * 4;
  out[o] = rgb[0]!;
  out[o + 1] = rgb[1]!;
  out[o + 2] = rgb[2]!;
  out[o + 3] = Math.round(255 * alpha);
}
