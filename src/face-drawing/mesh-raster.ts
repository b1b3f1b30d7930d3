// The moved triangles of a mesh frame drawn in script, over pixels read back once (mesh-paint.ts): a canvas clip
// and a transformed drawImage per triangle cost WebKitGTK's software canvas most of a trained face's frame while
// the mouth moved. Each target pixel takes the source pixel under the triangle's inverse affine (bilinear), with
// the edge's coverage as alpha, each triangle grown by a fraction of a pixel so no seam shows between neighbours.
// A sample beyond the source triangle's box (and a pixel or two round it) is not taken: past a thin triangle's
// edge its affine runs far across the frame (dark dashes off the mouth's corners).
import { triangleAffine } from './mesh.js';

/** RGBA pixels of a rectangle of the frame whose top-left corner is at (x, y) (an ImageData and its place). */
export interface PixelBox {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  x: number;
  y: number;
}

const NONE_BLUNT: readonly [boolean, boolean, boolean] = [false, false, false];

/** How far past the source triangle's box a sample may fall (frame pixels). */
const SOURCE_MARGIN = 2;

/**
 * Draws triangle `d` (target points x0 y0 x1 y1 x2 y2, frame pixels) into `target`, its pixels taken from
 * triangle `s` of `source` (the same points on the undeformed frame); edges anti-aliased after growing it `grow`
 * px, each corner pushed out as a canvas path of the grown triangle has it, except a `blunt` one (on the mouth's
 * opening: a sharp corner's point would stick out over the inside), pushed `grow` at most.
 */
export function rasterTriangle(
  target: PixelBox,
  source: PixelBox,
  s: readonly number[],
  d: readonly number[],
  grow: number,
  blunt: readonly [boolean, boolean, boolean] = NONE_BLUNT,
): void {
  const [u0, v0, u1, v1, u2, v2] = [d[0]!, d[1]!, d[2]!, d[3]!, d[4]!, d[5]!];
  const area = (u1 - u0) * (v2 - v0) - (u2 - u0) * (v1 - v0);
  if (Math.abs(area) < 1e-6) return;
  const sign = area > 0 ? 1 : -1;
  // Each edge as a x + b y + c: the signed distance (pixels) of (x, y) inside it, positive inside.
  const edge = (ax: number, ay: number, bx: number, by: number): [number, number, number] => {
    const len = Math.hypot(bx - ax, by - ay) || 1;
    const a = (-(by - ay) * sign) / len;
    const b = ((bx - ax) * sign) / len;
    return [a, b, -(a * ax + b * ay)];
  };
  const [g0x, g0y, g1x, g1y, g2x, g2y] = grownCorners(u0, v0, u1, v1, u2, v2, sign, grow, blunt);
  const e0 = edge(g0x, g0y, g1x, g1y);
  const e1 = edge(g1x, g1y, g2x, g2y);
  const e2 = edge(g2x, g2y, g0x, g0y);
  // Target to source: the affine taking d onto s (x' = p x + q y + r, y' = t x + w y + z).
  const back = triangleAffine(d, s);
  if (!back) return;
  const [p, t, q, w, r, z] = back;
  const [x0, y0, x1, y1, x2, y2] = [s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, s[5]!];

  const left = Math.max(target.x, Math.floor(Math.min(g0x, g1x, g2x) - 1));
  const right = Math.min(target.x + target.width, Math.ceil(Math.max(g0x, g1x, g2x) + 1));
  const top = Math.max(target.y, Math.floor(Math.min(g0y, g1y, g2y) - 1));
  const bottom = Math.min(target.y + target.height, Math.ceil(Math.max(g0y, g1y, g2y) + 1));
  const out = target.data;
  const src = source.data;
  const [sw, sh] = [source.width, source.height];
  const [a0, b0, c0, a1, b1, c1, a2, b2, c2] = [...e0, ...e1, ...e2];
  const stride = sw * 4;
  // The source triangle's box, in the source box's pixels (sample positions, centres at whole numbers).
  const lowX = Math.floor(Math.min(x0, x1, x2) - SOURCE_MARGIN) - source.x - 0.5;
  const highX = Math.ceil(Math.max(x0, x1, x2) + SOURCE_MARGIN) - source.x - 0.5;
  const lowY = Math.floor(Math.min(y0, y1, y2) - SOURCE_MARGIN) - source.y - 0.5;
  const highY = Math.ceil(Math.max(y0, y1, y2) + SOURCE_MARGIN) - source.y - 0.5;
  for (let y = top; y < bottom; y++) {
    const cy = y + 0.5;
    let at = ((y - target.y) * target.width + (left - target.x)) * 4;
    // Along the row each edge's distance and the source point change by a constant step.
    let cx = left + 0.5;
    let d0 = a0 * cx + b0 * cy + c0 + 0.5;
    let d1 = a1 * cx + b1 * cy + c1 + 0.5;
    let d2 = a2 * cx + b2 * cy + c2 + 0.5;
    let fx = p * cx + q * cy + r - 0.5 - source.x;
    let fy = t * cx + w * cy + z - 0.5 - source.y;
    for (let x = left; x < right; x++, at += 4, cx++, d0 += a0, d1 += a1, d2 += a2, fx += p, fy += t) {
      const cover = d0 < d1 ? (d0 < d2 ? d0 : d2) : d1 < d2 ? d1 : d2;
      if (cover <= 0 || fx < lowX || fx > highX || fy < lowY || fy > highY) continue;
      // Bilinear, pixel centres at half-pixels (as a canvas samples), clamped to the source box.
      const sx = fx < 0 ? 0 : fx > sw - 1 ? sw - 1 : fx;
      const sy = fy < 0 ? 0 : fy > sh - 1 ? sh - 1 : fy;
      const ix = sx >= sw - 1 ? sw - 2 : sx | 0;
      const iy = sy >= sh - 1 ? sh - 2 : sy | 0;
      const ax = sx - ix;
      const ay = sy - iy;
      const i00 = iy * stride + ix * 4;
      const i01 = i00 + stride;
      const k00 = (1 - ax) * (1 - ay);
      const k10 = ax * (1 - ay);
      const k01 = (1 - ax) * ay;
      const k11 = ax * ay;
      const red = src[i00]! * k00 + src[i00 + 4]! * k10 + src[i01]! * k01 + src[i01 + 4]! * k11;
      const green = src[i00 + 1]! * k00 + src[i00 + 5]! * k10 + src[i01 + 1]! * k01 + src[i01 + 5]! * k11;
      const blue = src[i00 + 2]! * k00 + src[i00 + 6]! * k10 + src[i01 + 2]! * k01 + src[i01 + 6]! * k11;
      if (cover >= 1) {
        out[at] = red;
        out[at + 1] = green;
        out[at + 2] = blue;
      } else {
        out[at] = out[at]! + (red - out[at]!) * cover;
        out[at + 1] = out[at + 1]! + (green - out[at + 1]!) * cover;
        out[at + 2] = out[at + 2]! + (blue - out[at + 2]!) * cover;
      }
      out[at + 3] = 255;
    }
  }
}

/**
 * A triangle's corners, each edge pushed `grow` px outwards: a corner moves along the sum of its two edges'
 * outward normals, by grow over the cosine of half its turn, capped at 4 grow for a sharp one (grow if blunt).
 */
export function grownCorners(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  sign: number,
  grow: number,
  blunt: readonly [boolean, boolean, boolean] = NONE_BLUNT,
): [number, number, number, number, number, number] {
  const xs = [x0, x1, x2];
  const ys = [y0, y1, y2];
  const out: [number, number, number, number, number, number] = [x0, y0, x1, y1, x2, y2];
  if (grow <= 0) return out;
  for (let i = 0; i < 3; i++) {
    const [p, q] = [(i + 2) % 3, (i + 1) % 3];
    const normal = (ax: number, ay: number, bx: number, by: number): [number, number] => {
      const len = Math.hypot(bx - ax, by - ay) || 1;
      return [(sign * (by - ay)) / len, (-sign * (bx - ax)) / len];
    };
    const n1 = normal(xs[p]!, ys[p]!, xs[i]!, ys[i]!);
    const n2 = normal(xs[i]!, ys[i]!, xs[q]!, ys[q]!);
    const [sx, sy] = [n1[0] + n2[0], n1[1] + n2[1]];
    const len = Math.hypot(sx, sy) || 1;
    const k = Math.min(blunt[i] ? grow : 4 * grow, grow / Math.max(0.25, len / 2));
    out[2 * i] = xs[i]! + (sx / len) * k;
    out[2 * i + 1] = ys[i]! + (sy / len) * k;
  }
  return out;
}
