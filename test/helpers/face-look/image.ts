// The pixel work of the face-look instrument (issue 51, point 7): RGB frames, their luma, a similarity
// transform fitted to landmarks, a frame resampled into another's coordinates, and polygons as masks.
// Pure and synchronous: the gate's unit tests run it on synthetic images.

/** An RGB frame, 3 bytes a pixel, row after row. */
export interface Rgb {
  width: number;
  height: number;
  rgb: Uint8Array;
}

export type Point = [number, number];

/** A plane of one value a pixel (luma 0–255, or a mask of 0/1). */
export interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

export function blank(width: number, height: number, [r, g, b]: [number, number, number] = [0, 0, 0]): Rgb {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i += 3) rgb.set([r, g, b], i);
  return { width, height, rgb };
}

/** Rec. 601 luma. */
export function lumaOf(image: Rgb): Plane {
  const data = new Float32Array(image.width * image.height);
  for (let i = 0, p = 0; i < data.length; i++, p += 3)
    data[i] = 0.299 * image.rgb[p]! + 0.587 * image.rgb[p + 1]! + 0.114 * image.rgb[p + 2]!;
  return { width: image.width, height: image.height, data };
}

/** Bilinear sample; outside the plane: NaN. */
export function sample(plane: Plane, x: number, y: number): number {
  if (x < 0 || y < 0 || x > plane.width - 1 || y > plane.height - 1) return NaN;
  const x0 = Math.min(plane.width - 2, Math.floor(x)),
    y0 = Math.min(plane.height - 2, Math.floor(y));
  const fx = x - x0,
    fy = y - y0,
    w = plane.width,
    d = plane.data;
  const top = d[y0 * w + x0]! * (1 - fx) + d[y0 * w + x0 + 1]! * fx;
  const bottom = d[(y0 + 1) * w + x0]! * (1 - fx) + d[(y0 + 1) * w + x0 + 1]! * fx;
  return top * (1 - fy) + bottom * fy;
}

/** x' = a·x − b·y + tx, y' = b·x + a·y + ty: a rotation, a uniform scale and a shift. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

export function applySimilarity(s: Similarity, [x, y]: Point): Point {
  return [s.a * x - s.b * y + s.tx, s.b * x + s.a * y + s.ty];
}

/** `inner` then `outer`, as one similarity. */
export function composeSimilarity(outer: Similarity, inner: Similarity): Similarity {
  const [tx, ty] = applySimilarity(outer, [inner.tx, inner.ty]);
  return { a: outer.a * inner.a - outer.b * inner.b, b: outer.b * inner.a + outer.a * inner.b, tx, ty };
}

/** The similarity taking `from` onto `to` in the least-squares sense (no reflection). */
export function fitSimilarity(from: Point[], to: Point[]): Similarity {
  const n = from.length;
  let fx = 0,
    fy = 0,
    tx = 0,
    ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]![0] / n;
    fy += from[i]![1] / n;
    tx += to[i]![0] / n;
    ty += to[i]![1] / n;
  }
  let sxx = 0,
    sab = 0,
    sba = 0;
  for (let i = 0; i < n; i++) {
    const x = from[i]![0] - fx,
      y = from[i]![1] - fy,
      u = to[i]![0] - tx,
      v = to[i]![1] - ty;
    sxx += x * x + y * y;
    sab += x * u + y * v;
    sba += x * v - y * u;
  }
  const a = sab / sxx,
    b = sba / sxx;
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

/** `plane` resampled onto a `width`×`height` grid whose pixel p sits at `toPlane(p)` in it (NaN where it falls outside). */
export function resample(plane: Plane, toPlane: Similarity, width: number, height: number): Plane {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [u, v] = applySimilarity(toPlane, [x, y]);
      data[y * width + x] = sample(plane, u, v);
    }
  }
  return { width, height, data };
}

/** 1 inside the polygon, 0 outside (even-odd, pixel centres). */
export function polygonMask(width: number, height: number, polygon: Point[]): Plane {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const cy = y + 0.5;
    const crossings: number[] = [];
    for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
      const [xi, yi] = polygon[i]!,
        [xj, yj] = polygon[j]!;
      if (yi > cy !== yj > cy) crossings.push(xi + ((cy - yi) / (yj - yi)) * (xj - xi));
    }
    crossings.sort((p, q) => p - q);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil(crossings[k]! - 0.5)),
        to = Math.min(width - 1, Math.floor(crossings[k + 1]! - 0.5));
      for (let x = from; x <= to; x++) data[y * width + x] = 1;
    }
  }
  return { width, height, data };
}

/** The polygon's points moved away from its centroid by `factor` (1: unchanged). */
export function scaled(polygon: Point[], factor: number): Point[] {
  const cx = polygon.reduce((s, p) => s + p[0], 0) / polygon.length,
    cy = polygon.reduce((s, p) => s + p[1], 0) / polygon.length;
  return polygon.map(([x, y]) => [cx + (x - cx) * factor, cy + (y - cy) * factor]);
}

export const distance = (p: Point, q: Point): number => Math.hypot(p[0] - q[0], p[1] - q[1]);

/** The value at quantile q (0–1) of the numbers (sorted copy). */
export function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).sort();
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

/** Pearson's correlation (NaN when either series is flat). */
export function correlation(xs: number[], ys: number[]): number {
  const n = xs.length,
    mx = xs.reduce((s, v) => s + v, 0) / n,
    my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/** The cosine of the angle between two vectors (1: the same direction). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! ** 2;
    bb += b[i]! ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}
