// A viseme the footage lacks (every viseme, for a photo) is made from the resting mouth by a smooth
// warp: the lower lip and jaw drop (the lips part and show a dark interior, with the upper teeth where
// the shape shows them), the corners stretch or draw together (spread or rounded lips), or the lips press.
// Inverse mapping per pixel, coordinates relative to the mouth's centre in units of half its width.
import { ImageData } from '@napi-rs/canvas';
import type { Viseme } from '../../../../protocol/visemes.js';

interface Shape {
  /** Jaw drop at the centre, in mouth half-widths. */
  drop: number;
  /** Horizontal scale of the mouth (> 1 spread, < 1 rounded). */
  stretch: number;
  /** Share of the opening the upper teeth fill. */
  teeth: number;
  /** Lips pressed together: their thickness shrinks by this share. */
  press: number;
}

const SHAPES: Record<Viseme, Shape> = {
  rest: { drop: 0, stretch: 1, teeth: 0, press: 0 },
  A: { drop: 0.62, stretch: 1, teeth: 0.25, press: 0 },
  E: { drop: 0.34, stretch: 1.08, teeth: 0.4, press: 0 },
  I: { drop: 0.18, stretch: 1.12, teeth: 0.6, press: 0 },
  O: { drop: 0.5, stretch: 0.78, teeth: 0.1, press: 0 },
  U: { drop: 0.22, stretch: 0.68, teeth: 0, press: 0 },
  M: { drop: 0, stretch: 0.98, teeth: 0, press: 0.35 },
  F: { drop: 0.1, stretch: 1.02, teeth: 0.9, press: 0.15 },
  L: { drop: 0.22, stretch: 1, teeth: 0.45, press: 0 },
  S: { drop: 0.08, stretch: 1.06, teeth: 0.85, press: 0 },
};

const INTERIOR = [58, 18, 22];
const TEETH = [226, 220, 208];

function sample(src: ImageData, x: number, y: number, out: Uint8ClampedArray, o: number): void {
  const { width, height, data } = src;
  const x0 = Math.max(0, Math.min(width - 2, Math.floor(x)));
  const y0 = Math.max(0, Math.min(height - 2, Math.floor(y)));
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  for (let c = 0; c < 4; c++) {
    const i = (y0 * width + x0) * 4 + c;
    const top = data[i]! * (1 - fx) + data[i + 4]! * fx;
    const bottom = data[i + width * 4]! * (1 - fx) + data[i + width * 4 + 4]! * fx;
    out[o + c] = top * (1 - fy) + bottom * fy;
  }
}

export function warpMouth(rest: ImageData, viseme: Viseme, mouthWidth: number): ImageData {
  const shape = SHAPES[viseme];
  const { width, height } = rest;
  const out = new Uint8ClampedArray(width * height * 4);
  const a = mouthWidth / 2;
  const cx = width / 2;
  const cy = height / 2;
  const bottom = (height - cy) / a;
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const u = (px + 0.5 - cx) / a;
      const v = (py + 0.5 - cy) / a;
      // Spread or rounding, strongest on the lips' line, fading above and below.
      const s = 1 + (shape.stretch - 1) * Math.exp(-v * v * 1.5) * Math.exp(-u * u * 0.15);
      let su = u / s;
      let sv = v;
      // Pressed lips: the band around the lip line is drawn from a wider band (thinner lips).
      if (shape.press) sv = v * (1 + shape.press * Math.exp(-v * v * 8));
      const o = (py * width + px) * 4;
      if (v > 0 && shape.drop) {
        // The lower lip and jaw move down, most at the centre, none at the corners or the cell's bottom.
        const across = Math.max(0, 1 - (su * su) / (s * s * 1.05));
        const d = shape.drop * across * Math.max(0, 1 - v / bottom);
        sv = v - d;
        if (sv < 0) {
          // Between the parted lips: the mouth's interior, upper teeth first.
          const gap = shape.drop * across;
          const depth = gap > 0 ? v / gap : 1;
          const colour = depth < shape.teeth ? TEETH : INTERIOR;
          const shade = 0.75 + 0.25 * Math.min(1, Math.abs(su));
          out[o] = colour[0]! * shade;
          out[o + 1] = colour[1]! * shade;
          out[o + 2] = colour[2]! * shade;
          out[o + 3] = 255;
          continue;
        }
        su = u / s;
      }
      sample(rest, cx + su * a - 0.5, cy + sv * a - 0.5, out, o);
    }
  }
  return new ImageData(out, width, height);
}
