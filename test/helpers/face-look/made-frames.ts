// Frames made on purpose from a face at rest and its landmarks, to calibrate the face-look measures (issue
// 51, point 7): good ones (the head moved a little with sensor noise, a jaw that opens and carries the chin,
// a mouth inside with the face's own teeth over a throat's shading, eyelids drawn down over the eyes) and
// bad ones (rectangles pasted over the brows, a flat black ellipse for a mouth, lips parted over a frozen
// chin). Pure: an RGB frame and its mesh in, a new frame out.
import { applySimilarity, distance, lumaOf, polygonMask, type Point, type Rgb, type Similarity } from './image.js';
import { CHIN, EYES, INNER_LIPS, OUTER_LIPS, faceHeight, points, type Mesh } from './regions.js';

/** A seeded pseudo-random generator (mulberry32): the same frames on every run. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pixel(image: Rgb, x: number, y: number, c: number): number {
  const xi = Math.max(0, Math.min(image.width - 2, Math.floor(x))),
    yi = Math.max(0, Math.min(image.height - 2, Math.floor(y)));
  const fx = Math.max(0, Math.min(1, x - xi)),
    fy = Math.max(0, Math.min(1, y - yi)),
    w = image.width,
    d = image.rgb;
  const at = (px: number, py: number) => d[(py * w + px) * 3 + c]!;
  return (at(xi, yi) * (1 - fx) + at(xi + 1, yi) * fx) * (1 - fy) + (at(xi, yi + 1) * (1 - fx) + at(xi + 1, yi + 1) * fx) * fy;
}

/** A new frame whose pixel (x, y) is the source's at `from(x, y)` (bilinear, edges held). */
export function remap(image: Rgb, from: (x: number, y: number) => Point): Rgb {
  const out = new Uint8Array(image.rgb.length);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const [u, v] = from(x, y);
      for (let c = 0; c < 3; c++) out[(y * image.width + x) * 3 + c] = Math.round(pixel(image, u, v, c));
    }
  }
  return { width: image.width, height: image.height, rgb: out };
}

/** The whole frame moved by a similarity (given as output → source), and its mesh moved the other way. */
export function moveHead(image: Rgb, mesh: Mesh, outputToSource: Similarity): { image: Rgb; mesh: Mesh } {
  const { a, b, tx, ty } = outputToSource,
    det = a * a + b * b;
  const back = ([x, y]: Point): Point => [(a * (x - tx) + b * (y - ty)) / det, (-b * (x - tx) + a * (y - ty)) / det];
  return { image: remap(image, (x, y) => applySimilarity(outputToSource, [x, y])), mesh: mesh.map(back) };
}

/** Sensor noise: each channel plus a uniform ±`amplitude`. */
export function noisy(image: Rgb, amplitude: number, seed = 1): Rgb {
  const next = random(seed),
    rgb = new Uint8Array(image.rgb.length);
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.max(0, Math.min(255, Math.round(image.rgb[i]! + (next() * 2 - 1) * amplitude)));
  return { ...image, rgb };
}

const smooth = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/**
 * The jaw opened by `open` pixels: below the upper lip everything in the jaw's width slides down (the lower
 * lip, the lower teeth, the chin), fading out over the jaw's sides and under the chin; `carryChin: false`
 * parts the lips only (the slide fades out within a lip's height below the lower lip: a frozen chin), and a
 * share between 0 and 1 carries the chin that share of the opening (a jaw that lags the lips). The
 * opening is filled by `inside`: 'mouth' (the face's own teeth from behind the upper lip, then a throat's
 * shading with texture, a tongue on its floor), 'void' (a flat black, luma 17) or 'hole' (the clip face's
 * widest mouth before issue 51's fix: a thin strip of teeth over a dim brown throat with a little texture, no
 * tongue, the lips paled).
 */
export function openJaw(
  image: Rgb,
  mesh: Mesh,
  open: number,
  { carryChin = true as boolean | number, inside = 'mouth' as 'mouth' | 'void' | 'hole' } = {},
): Rgb {
  const upper = mesh[13]!,
    lower = mesh[14]!,
    chin = mesh[CHIN]!;
  const left = mesh[172]!,
    right = mesh[397]!;
  const cx = (upper[0] + lower[0]) / 2,
    half = distance(left, right) / 2;
  const lipHeight = distance(mesh[14]!, mesh[17]!);
  const below = (x: number, y: number) => {
    const across = 1 - smooth((Math.abs(x - cx) / half - 0.6) / 0.5);
    const down = smooth((y - upper[1]) / Math.max(1, lower[1] - upper[1] + 1));
    const share = carryChin === true ? 1 : carryChin === false ? 0 : carryChin;
    const withChin = 1 - smooth((y - chin[1]) / (0.25 * faceHeight(mesh))),
      lipsOnly = 1 - smooth((y - lower[1] - lipHeight) / lipHeight);
    const fade = share * withChin + (1 - share) * lipsOnly;
    return across * down * fade;
  };
  const warped = remap(inside === 'hole' ? paleLips(image, mesh) : image, (x, y) => [x, y - open * below(x, y - open)]);
  // The opening: between the upper inner lip and the lower inner lip moved down.
  const lips = points(mesh, INNER_LIPS).map(([x, y]): Point => (y > (upper[1] + lower[1]) / 2 ? [x, y + open * below(x, y)] : [x, y]));
  const mask = polygonMask(image.width, image.height, lips);
  // Per column, where the opening starts (the upper lip's inner edge) and ends, now and at rest.
  const restMask = polygonMask(image.width, image.height, points(mesh, INNER_LIPS));
  const span = (m: typeof mask, x: number): [number, number] => {
    let first = -1,
      last = -1;
    for (let y = 0; y < image.height; y++) {
      if (!m.data[y * image.width + x]) continue;
      if (first < 0) first = y;
      last = y;
    }
    return [first, last];
  };
  // Upper incisors show about a sixteenth of the face's height below the lip (the hole's strip a third of that).
  const teethHeight = faceHeight(mesh) / (inside === 'hole' ? 32 : 16);
  const next = random(7);
  for (let x = 0; x < image.width; x++) {
    const [top, bottom] = span(mask, x);
    if (top < 0) continue;
    const [restTop, restBottom] = span(restMask, x);
    for (let y = top; y <= bottom; y++) {
      const i = y * image.width + x;
      if (!mask.data[i]) continue;
      let rgb: [number, number, number];
      if (inside === 'void') rgb = [17, 17, 17];
      else if (inside === 'hole' && y - top >= teethHeight) {
        const grain = (next() - 0.5) * 14;
        rgb = [64 + grain, 40 + grain, 42 + grain];
      } else if (y - top < teethHeight && restTop >= 0) {
        // The upper teeth: the face's own, from the smile's tooth row between the lips at rest, stretched.
        const from = restTop + ((y - top) / teethHeight) * Math.min(teethHeight, Math.max(1, restBottom - restTop));
        rgb = [0, 1, 2].map((c) => pixel(image, x, from, c)) as [number, number, number];
      } else {
        // The throat: a warm dark red (blue under green), darker toward the back, with a little texture.
        const depth = (y - top - teethHeight) / Math.max(1, bottom - top - teethHeight);
        const shade = 1 - 0.5 * Math.sin(Math.PI * Math.min(1, Math.max(0, depth)));
        const grain = (next() - 0.5) * 24;
        // The tongue: the opening's lowest fifth, dimmer than the lips (a bigger, brighter one FaceMesh took for the
        // lower lip: it read the made opening of 11 % as 1 %).
        const tongue = depth > 0.8 ? 0.75 : 0;
        rgb = tongue
          ? [175 * tongue + grain, 80 * tongue + grain, 85 * tongue + grain]
          : [110 * shade + grain, 45 * shade + grain, 36 * shade + grain];
      }
      for (let c = 0; c < 3; c++) warped.rgb[i * 3 + c] = Math.max(0, Math.min(255, Math.round(rgb[c]!)));
    }
  }
  return warped;
}

/** The lips paled: inside the lips' outer edge, each pixel three quarters of the way to its own grey (the blurred clip's lips). */
function paleLips(image: Rgb, mesh: Mesh): Rgb {
  const out = { ...image, rgb: Uint8Array.from(image.rgb) };
  const mask = polygonMask(image.width, image.height, points(mesh, OUTER_LIPS));
  const luma = lumaOf(image);
  for (let i = 0; i < mask.data.length; i++) {
    if (!mask.data[i]) continue;
    for (let c = 0; c < 3; c++) out.rgb[i * 3 + c] = Math.round(0.25 * image.rgb[i * 3 + c]! + 0.75 * luma.data[i]!);
  }
  return out;
}

/** Today's mouth: a flat black ellipse `open` pixels tall cut over the closed mouth, the chin left where it was. */
export function blackEllipse(image: Rgb, mesh: Mesh, open: number): Rgb {
  const out = { ...image, rgb: Uint8Array.from(image.rgb) };
  const cx = (mesh[13]![0] + mesh[14]![0]) / 2,
    cy = (mesh[13]![1] + mesh[14]![1]) / 2;
  const rx = (distance(mesh[78]!, mesh[308]!) / 2) * 0.85,
    ry = open / 2;
  for (let y = Math.floor(cy - ry); y <= cy + ry; y++) {
    for (let x = Math.floor(cx - rx); x <= cx + rx; x++) {
      if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue;
      const i = (y * image.width + x) * 3;
      out.rgb[i] = out.rgb[i + 1] = out.rgb[i + 2] = 17;
    }
  }
  return out;
}

/** Today's blink: over each brow, a rectangle of the frame copied from higher up (hair, forehead). */
export function pastedBrows(image: Rgb, mesh: Mesh): Rgb {
  const out = { ...image, rgb: Uint8Array.from(image.rgb) };
  for (const brow of [
    [70, 63, 105, 66, 107],
    [300, 293, 334, 296, 336],
  ]) {
    const pts = points(mesh, brow);
    const x0 = Math.round(Math.min(...pts.map((p) => p[0]))),
      x1 = Math.round(Math.max(...pts.map((p) => p[0])));
    const y0 = Math.round(Math.min(...pts.map((p) => p[1])) - 4),
      y1 = Math.round(Math.max(...pts.map((p) => p[1])) + 6);
    const lift = Math.round(faceHeight(mesh) * 0.3);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++)
        for (let c = 0; c < 3; c++) out.rgb[(y * image.width + x) * 3 + c] = image.rgb[(Math.max(0, y - lift) * image.width + x) * 3 + c]!;
  }
  return out;
}

/**
 * A blink: each upper lid's skin drawn down over its eye to the lower lid (`closed`: 1 shut), the rows above
 * the lid stretched to follow, nothing changed beyond a third of an eye's width above it.
 */
export function blink(image: Rgb, mesh: Mesh, closed = 1): Rgb {
  let out = image;
  for (const loop of EYES) {
    const eye = points(mesh, loop);
    const corner0 = mesh[loop[0]!]!,
      corner1 = mesh[loop[8]!]!;
    const width = distance(corner0, corner1);
    const x0 = Math.min(corner0[0], corner1[0]),
      x1 = Math.max(corner0[0], corner1[0]);
    const lidAt = (x: number, upperLid: boolean) => {
      // The lid loop's y at column x (upper or lower half), by the nearest points.
      const half = eye
        .filter((_, k) => (upperLid ? k >= 1 && k <= 7 : k >= 9))
        .concat([corner0, corner1])
        .sort((p, q) => p[0] - q[0]);
      for (let k = 0; k + 1 < half.length; k++)
        if (x >= half[k]![0] && x <= half[k + 1]![0]) {
          const t = (x - half[k]![0]) / Math.max(1e-6, half[k + 1]![0] - half[k]![0]);
          return half[k]![1] * (1 - t) + half[k + 1]![1] * t;
        }
      return (corner0[1] + corner1[1]) / 2;
    };
    const source = out;
    out = remap(source, (x, y) => {
      const margin = width * 0.12;
      if (x < x0 - margin || x > x1 + margin) return [x, y];
      const fade = 1 - smooth((Math.abs(x - (x0 + x1) / 2) - (x1 - x0) / 2) / margin);
      const lid = lidAt(Math.max(x0, Math.min(x1, x)), true),
        bottom = lidAt(Math.max(x0, Math.min(x1, x)), false);
      const crease = lid - width / 3;
      const target = lid + (bottom + width * 0.1 - lid) * closed * fade;
      // Rows from the crease to the lid's new edge come from the crease to the lid's old edge (skin stretched).
      if (y < crease || y > target + 1) return [x, y];
      // The skin stretches most near the crease; the lid's edge (the lashes) keeps its width at the bottom.
      const t = Math.min(1, (y - crease) / Math.max(1e-6, target - crease)),
        power = Math.max(1, (target - crease) / Math.max(1e-6, lid - crease));
      return [x, crease + (lid - crease) * t ** power];
    });
  }
  return out;
}

/** The frame's luma spread over a polygon (for checking made frames). */
export function lumaIn(image: Rgb, polygon: Point[]): number[] {
  const luma = lumaOf(image),
    mask = polygonMask(image.width, image.height, polygon),
    out: number[] = [];
  for (let i = 0; i < mask.data.length; i++) if (mask.data[i]) out.push(luma.data[i]!);
  return out;
}
