// The face-look measures of one frame against the face at rest (issue 51, point 7): (a) the change outside
// the mouth-and-jaw region and the eyelids once the frame is aligned on the rest frame, (b) what an open
// mouth's inside holds, and the per-frame readings (c) and (d) are made of (chin, opening, eye aspect).
// Pure: frames and their landmarks in, numbers out.
import {
  applySimilarity,
  composeSimilarity,
  fitSimilarity,
  lumaOf,
  polygonMask,
  quantile,
  resample,
  scaled,
  type Plane,
  type Point,
  type Rgb,
  type Similarity,
} from './image.js';
import { refineAlignment } from './refine.js';
import {
  CHIN,
  FACE_OVAL,
  FOREHEAD,
  INNER_LIPS,
  NOSE_BASE,
  OUTER_LIPS,
  STABLE,
  eyelidRegions,
  faceHeight,
  points,
  type Mesh,
} from './regions.js';

/** A frame with its landmarks. */
export interface Seen {
  image: Rgb;
  mesh: Mesh;
}

/** The aligned comparison is made on a grid where the rest face is this tall (forehead to chin), whatever the capture's size. */
export const NORMAL_HEIGHT = 160;
/** Cells of the comparison: a twentieth of the face's height. */
const CELL = 8;
/** How far (grid pixels) a cell may shift to find its match: landmark jitter and a nod are not a change. */
const SLACK = 2;

/** The rest frame, prepared once: its normalised grid, the region compared and the map from grid to rest. */
export interface Rest {
  seen: Seen;
  height: number;
  /** Grid pixel → rest frame pixel. */
  gridToRest: Similarity;
  grid: Plane;
  /** 1 where (a) looks: inside the face oval, above the nose's base, outside the eyelids. */
  region: Plane;
}

/** The grid's frame: the rest face's oval with a margin, upright, NORMAL_HEIGHT tall. */
export function prepareRest(seen: Seen): Rest {
  const height = faceHeight(seen.mesh);
  const scale = height / NORMAL_HEIGHT;
  const oval = points(seen.mesh, FACE_OVAL);
  const left = Math.min(...oval.map((p) => p[0])) - 4 * scale,
    top = Math.min(...oval.map((p) => p[1])) - 4 * scale;
  const width = Math.ceil((Math.max(...oval.map((p) => p[0])) - left) / scale + 4),
    gridHeight = Math.ceil((Math.max(...oval.map((p) => p[1])) - top) / scale + 4);
  const gridToRest: Similarity = { a: scale, b: 0, tx: left, ty: top };
  const toGrid = (p: Point): Point => [(p[0] - left) / scale, (p[1] - top) / scale];
  const luma = lumaOf(seen.image);
  const grid = resample(luma, gridToRest, width, gridHeight);
  // Above the nose's base, measured along the face's own axis (forehead to chin).
  const forehead = toGrid(seen.mesh[FOREHEAD]!),
    chin = toGrid(seen.mesh[CHIN]!),
    base = toGrid(seen.mesh[NOSE_BASE]!);
  const axis: Point = [(chin[0] - forehead[0]) / NORMAL_HEIGHT, (chin[1] - forehead[1]) / NORMAL_HEIGHT];
  const along = (p: Point) => ((p[0] - forehead[0]) * axis[0] + (p[1] - forehead[1]) * axis[1]) / NORMAL_HEIGHT;
  const limit = along(base);
  const region = polygonMask(width, gridHeight, oval.map(toGrid));
  const lids = eyelidRegions(seen.mesh).map((lid) => polygonMask(width, gridHeight, lid.map(toGrid)));
  for (let y = 0; y < gridHeight; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (along([x + 0.5, y + 0.5]) > limit || lids.some((lid) => lid.data[i]) || Number.isNaN(grid.data[i]!)) region.data[i] = 0;
    }
  }
  return { seen, height, gridToRest, grid, region };
}

/** The similarity taking rest-frame pixels to the frame's, by the stable landmarks. */
export function restToFrame(rest: Rest, mesh: Mesh): Similarity {
  return fitSimilarity(points(rest.seen.mesh, STABLE), points(mesh, STABLE));
}

export interface OutsideChange {
  /** The worst cell's mean absolute luma difference (0–255) at its best shift, the frames' overall offset removed. */
  worst: number;
  /** Where that cell is, in the frame's own pixels (its centre). */
  at: Point;
  /** The frame's luma on the rest grid (for pictures of the comparison). */
  aligned: Plane;
  /** Rest grid pixel → frame pixel, refined by the pixels ((c)'s chin edge reads the frame through it too). */
  toFrame: Similarity;
}

/** (a): how much the face changed outside the mouth-and-jaw region and the eyelids, cell by cell, after alignment. */
export function outsideChange(rest: Rest, frame: Seen): OutsideChange {
  const luma = lumaOf(frame.image);
  // The landmarks' similarity, refined by the pixels (refine.ts: FaceMesh reads an open mouth's face larger).
  const toFrame = refineAlignment(rest.grid, rest.region, luma, composeSimilarity(restToFrame(rest, frame.mesh), rest.gridToRest));
  const { width, height } = rest.grid;
  const aligned = resample(luma, toFrame, width, height);
  // A change of light over the whole face (a clip's exposure) is not a local change: the median offset goes.
  const offsets: number[] = [];
  for (let i = 0; i < aligned.data.length; i++)
    if (rest.region.data[i] && !Number.isNaN(aligned.data[i]!)) offsets.push(aligned.data[i]! - rest.grid.data[i]!);
  const offset = offsets.length ? quantile(offsets, 0.5) : 0;
  let worst = 0,
    at: Point = [0, 0];
  for (let cy = 0; cy + CELL <= height; cy += CELL / 2) {
    for (let cx = 0; cx + CELL <= width; cx += CELL / 2) {
      let inside = 0;
      for (let y = cy; y < cy + CELL; y++) for (let x = cx; x < cx + CELL; x++) inside += rest.region.data[y * width + x]!;
      if (inside < CELL * CELL * 0.6) continue;
      let best = Infinity;
      for (let dy = -SLACK; dy <= SLACK && best > 0; dy++) {
        for (let dx = -SLACK; dx <= SLACK; dx++) {
          let sum = 0,
            n = 0;
          for (let y = cy; y < cy + CELL; y++) {
            for (let x = cx; x < cx + CELL; x++) {
              const i = y * width + x;
              if (!rest.region.data[i]) continue;
              const v = aligned.data[(y + dy) * width + (x + dx)];
              if (v === undefined || Number.isNaN(v) || x + dx < 0 || x + dx >= width) continue;
              sum += Math.abs(v - offset - rest.grid.data[i]!);
              n++;
            }
          }
          if (n >= inside * 0.8) best = Math.min(best, sum / n);
        }
      }
      if (best !== Infinity && best > worst) {
        worst = best;
        at = applySimilarity(toFrame, [cx + CELL / 2, cy + CELL / 2]);
      }
    }
  }
  return { worst, at, aligned, toFrame };
}

export interface MouthInside {
  /** Pixels inside the lips' inner edge (drawn in a little from the lips). */
  pixels: number;
  /** Luma's spread inside: its 90th less its 10th percentile. */
  spread: number;
  median: number;
  /** Share of the inside that is a flat void: dark (luma < 40) with its 3×3 neighbourhood within 6 levels. */
  voidShare: number;
  /** Share of the upper 40 % of the inside bright as teeth: luma at least 0.8 of the skin's, and little colour. */
  toothShare: number;
  /**
   * Share of the whole mouth (inside the lips' outer edge: lips and opening) in a mouth's warm tones — lips,
   * tongue, a lit throat: red over green by at least WARM.red of the red, its luma between WARM.dark and
   * WARM.bright of the skin's. FaceMesh's inner lips sit inside a drawn opening, so the mouth is read whole.
   */
  warmShare: number;
  /** Share of the whole mouth near-black (luma under WARM.dark of the skin's): the throat's shadow (reported). */
  blackShare: number;
  /**
   * The throat's hue: the median hue angle (degrees, red 0, yellow 60, magenta −60) of the inside's dark pixels
   * (luma from a tenth to WARM.dark of the skin's). A mouth's shadow is a warm red-dark (blue under green);
   * at blue = green or over it, it reads purple-brown.
   */
  throatHue: number;
}

/** A pixel's hue angle in degrees (red 0, yellow 60, magenta −60). */
const hueOf = (r: number, g: number, b: number) => (Math.atan2(Math.sqrt(3) * (g - b), 2 * r - g - b) * 180) / Math.PI;

/** What (b)'s warm tones are (calibration.ts; docs/face-look.md). */
export const WARM = { red: 0.3, dark: 0.3, bright: 0.75 };

/** The skin's luma: the median around the cheeks, the forehead and the nose's ridge. */
function skinLuma(luma: Plane, mesh: Mesh): number {
  const around: number[] = [];
  for (const i of [50, 280, 151, 6, 117, 346]) {
    const [x, y] = mesh[i]!;
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const v = luma.data[Math.round(y + dy) * luma.width + Math.round(x + dx)];
        if (v !== undefined) around.push(v);
      }
  }
  return quantile(around, 0.5);
}

/** (b): what the open mouth's inside holds. */
export function mouthInside(frame: Seen): MouthInside {
  const { image, mesh } = frame;
  const luma = lumaOf(image);
  const lips = scaled(points(mesh, INNER_LIPS), 0.9);
  const mask = polygonMask(image.width, image.height, lips);
  const top = Math.min(...lips.map((p) => p[1])),
    bottom = Math.max(...lips.map((p) => p[1]));
  const upperLimit = top + 0.4 * (bottom - top);
  const skin = skinLuma(luma, mesh);
  const values: number[] = [];
  const hues: number[] = [];
  let flat = 0,
    upper = 0,
    teeth = 0;
  const w = image.width;
  for (let y = 1; y < image.height - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!mask.data[i]) continue;
      const v = luma.data[i]!;
      values.push(v);
      if (v >= 0.1 * skin && v < WARM.dark * skin) hues.push(hueOf(image.rgb[i * 3]!, image.rgb[i * 3 + 1]!, image.rgb[i * 3 + 2]!));
      if (v < 40) {
        let lo = v,
          hi = v;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const n = luma.data[i + dy * w + dx]!;
            lo = Math.min(lo, n);
            hi = Math.max(hi, n);
          }
        if (hi - lo <= 6) flat++;
      }
      if (y + 0.5 <= upperLimit) {
        upper++;
        const r = image.rgb[i * 3]!,
          g = image.rgb[i * 3 + 1]!,
          b = image.rgb[i * 3 + 2]!;
        const chroma = Math.max(r, g, b) - Math.min(r, g, b);
        if (v >= 0.8 * skin && chroma <= 0.35 * Math.max(r, g, b)) teeth++;
      }
    }
  }
  if (!values.length)
    return { pixels: 0, spread: 0, median: NaN, voidShare: 0, toothShare: 0, warmShare: 0, blackShare: 0, throatHue: NaN };
  const mouth = polygonMask(image.width, image.height, points(mesh, OUTER_LIPS));
  let all = 0,
    warm = 0,
    black = 0;
  for (let i = 0; i < mouth.data.length; i++) {
    if (!mouth.data[i]) continue;
    all++;
    const v = luma.data[i]!,
      r = image.rgb[i * 3]!,
      g = image.rgb[i * 3 + 1]!;
    if (v < WARM.dark * skin) black++;
    else if (v < WARM.bright * skin && r - g >= WARM.red * r) warm++;
  }
  return {
    warmShare: all ? warm / all : 0,
    blackShare: all ? black / all : 0,
    throatHue: hues.length ? quantile(hues, 0.5) : NaN,
    pixels: values.length,
    spread: quantile(values, 0.9) - quantile(values, 0.1),
    median: quantile(values, 0.5),
    voidShare: flat / values.length,
    toothShare: upper ? teeth / upper : 0,
  };
}

/** (c)'s reading of one frame: how far the chin is below its rest place, along the face's axis, in rest face heights. */
export function chinDrop(rest: Rest, mesh: Mesh): number {
  const toFrame = restToFrame(rest, mesh);
  // The frame's chin brought back into the rest frame's pixels (the inverse similarity).
  const det = toFrame.a ** 2 + toFrame.b ** 2;
  const [x, y] = [mesh[CHIN]![0] - toFrame.tx, mesh[CHIN]![1] - toFrame.ty];
  const back: Point = [(toFrame.a * x + toFrame.b * y) / det, (-toFrame.b * x + toFrame.a * y) / det];
  const forehead = rest.seen.mesh[FOREHEAD]!,
    chin = rest.seen.mesh[CHIN]!;
  const axis: Point = [(chin[0] - forehead[0]) / rest.height, (chin[1] - forehead[1]) / rest.height];
  return ((back[0] - chin[0]) * axis[0] + (back[1] - chin[1]) * axis[1]) / rest.height;
}
