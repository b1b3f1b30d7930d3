// A trained face's rig drawn for tests, like a made one (issue 32): one idle frame — a face of skin over a
// dark background, its mouth closed — and a mouth sheet of the resting mouth and an open one (jaw dropped by
// the made 'A', its dark opening showing upper teeth), with the made patches' feathered alpha. Painted on any
// 2D context: the browser's canvas (test/browser/face/rig-jaw.test.ts) or @napi-rs/canvas
// (test/server/resources/videos/video-rig-jaw.test.ts); each encodes the two sheets itself.
import { MADE_JAW_DROP, patchAlpha } from '../../src/face-drawing/jaw.js';
import type { FaceRig } from '../../src/protocol/faces/rig.js';
import { VISEMES } from '../../src/protocol/visemes.js';

export const SIZE = 160;
/** The mouth's centre and width on the idle frame; the mouth cells draw it at the same scale. */
export const MOUTH = { x: 80, y: 70, w: 40 };
export const HALF = MOUTH.w / 2;
export const CELL = { width: 112, height: 128 };
/** The mouth sheet's size: the resting mouth's cell, then the open one's. */
export const MOUTH_SHEET = { width: CELL.width * 2, height: CELL.height };
export const SKIN = [216, 160, 128] as const;
export const BACKGROUND = [40, 48, 64] as const;
const LIPS = [122, 42, 42] as const;
const OPENING = [20, 4, 4] as const;
export const TEETH = [236, 232, 222] as const;
/** The chin, below the mouth's centre in half-widths: at rest, and with the open mouth's jaw dropped. */
export const CHIN_REST = 1.3;
export const CHIN_OPEN = CHIN_REST + MADE_JAW_DROP.A;
/** The open mouth's upper teeth, from the lip line down (pixels below the mouth's centre), inset from the corners. */
const TEETH_DEPTH = 4;
const TEETH_INSET = 6;

/** What of a 2D context the painting needs (the DOM's and @napi-rs/canvas's both have it). */
export interface PaintContext {
  fillStyle: string | object;
  fillRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  ellipse(x: number, y: number, rx: number, ry: number, rotation: number, start: number, end: number): void;
  fill(): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
  save(): void;
  restore(): void;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  putImageData(image: { data: Uint8ClampedArray }, x: number, y: number): void;
}

const rgb = (c: readonly number[]) => `rgb(${c.join(',')})`;

/** A face centred at (cx, mouth y), its chin `chin` half-widths below the mouth, the lips apart by `open` half-widths (teeth showing when open). */
function paintFace(c: PaintContext, cx: number, my: number, chin: number, open: number): void {
  c.fillStyle = rgb(BACKGROUND);
  c.fillRect(cx - SIZE, my - SIZE, 2 * SIZE, 2 * SIZE);
  const bottom = my + chin * HALF;
  const top = my - 60;
  c.fillStyle = rgb(SKIN);
  c.beginPath();
  c.ellipse(cx, (top + bottom) / 2, 50, (bottom - top) / 2, 0, 0, 2 * Math.PI);
  c.fill();
  c.fillStyle = rgb(LIPS);
  c.fillRect(cx - HALF, my - 4, MOUTH.w, 8 + open * HALF);
  c.fillStyle = rgb(OPENING); // a hairline when closed
  c.fillRect(cx - HALF + 3, my - 0.5, MOUTH.w - 6, 1 + open * HALF);
  if (open > 0) {
    c.fillStyle = rgb(TEETH);
    c.fillRect(cx - HALF + TEETH_INSET, my - 0.5, MOUTH.w - 2 * TEETH_INSET, TEETH_DEPTH);
  }
}

/** The idle frame (SIZE × SIZE): the face at rest. */
export function paintIdle(c: PaintContext): void {
  paintFace(c, MOUTH.x, MOUTH.y, CHIN_REST, 0);
}

/** The mouth sheet (MOUTH_SHEET): the resting mouth, then the open one, each a made patch with its feathered alpha. */
export function paintMouths(c: PaintContext): void {
  paintFace(c, CELL.width / 2, CELL.height / 2, CHIN_REST, 0);
  c.save();
  c.beginPath();
  c.rect(CELL.width, 0, CELL.width, CELL.height);
  c.clip();
  paintFace(c, CELL.width * 1.5, CELL.height / 2, CHIN_OPEN, MADE_JAW_DROP.A);
  c.restore();
  const image = c.getImageData(0, 0, MOUTH_SHEET.width, MOUTH_SHEET.height);
  for (let y = 0; y < CELL.height; y++)
    for (let x = 0; x < MOUTH_SHEET.width; x++)
      image.data[(y * MOUTH_SHEET.width + x) * 4 + 3] = Math.round(
        255 * patchAlpha(((x % CELL.width) + 0.5 - CELL.width / 2) / HALF, (y + 0.5 - CELL.height / 2) / HALF),
      );
  c.putImageData(image, 0, 0);
}

/** The rig naming the two sheets (`idle.png`, `mouths.png`): every viseme the resting mouth but 'A', the open one; all made. */
export function drawnRig(): FaceRig {
  return {
    version: 1,
    width: SIZE,
    height: SIZE,
    fps: 10,
    idle: { url: 'idle.png', cellWidth: SIZE, cellHeight: SIZE, columns: 1, count: 1 },
    poses: [{ x: MOUTH.x, y: MOUTH.y, width: MOUTH.w, angle: 0 }],
    blinks: [],
    mouths: { sheet: { url: 'mouths.png', cellWidth: CELL.width, cellHeight: CELL.height, columns: 2, count: 2 }, mouthWidth: MOUTH.w },
    visemes: Object.fromEntries(VISEMES.map((v) => [v, { cell: v === 'A' ? 1 : 0, source: 'warp' }])) as FaceRig['visemes'],
  };
}

const lumaOf = (c: readonly number[]) => 0.299 * c[0]! + 0.587 * c[1]! + 0.114 * c[2]!;

/** Brightness of a frame's pixel (RGBA, SIZE wide). */
export function luma(frame: Uint8ClampedArray, x: number, y: number): number {
  const i = (Math.round(y) * SIZE + x) * 4;
  return lumaOf([frame[i]!, frame[i + 1]!, frame[i + 2]!]);
}

/** The chin's edges along the face's middle column: runs of rows where brightness falls by over a quarter of skin-to-background. */
export function chinEdges(frame: Uint8ClampedArray): number[] {
  const contrast = 0.25 * (lumaOf(SKIN) - lumaOf(BACKGROUND));
  const edges: number[] = [];
  let inEdge = false;
  // From below the widest opening to past the lowest chin, averaged over three columns.
  for (let y = Math.ceil(MOUTH.y + (MADE_JAW_DROP.A + 0.5) * HALF); y < MOUTH.y + (CHIN_OPEN + 0.8) * HALF; y++) {
    const at = (row: number) => [-1, 0, 1].reduce((s, dx) => s + luma(frame, MOUTH.x + dx, row), 0) / 3;
    const falling = at(y - 1) - at(y + 1) > contrast;
    if (falling && !inEdge) edges.push(y);
    inEdge = falling;
  }
  return edges;
}

/**
 * The open mouth's interior as a frame shows it: over the opening's top (from the lip line down as far as
 * the teeth reach, inside their width: what shows at every moment of an opening, however small the blended
 * jaw's), the share of pixels showing one of the mouths' own colours — teeth, the dark opening, lips, skin —
 * within `tolerance` (the largest channel difference), and how many are teeth. A cross-fade of the open mouth
 * with the closed one shows mixes there: grey teeth, a washed-out dark.
 */
export function interiorColours(frame: Uint8ClampedArray, tolerance = 20): { own: number; teeth: number } {
  const palette = [TEETH, OPENING, LIPS, SKIN];
  const near = (i: number, colour: readonly number[]) => [0, 1, 2].every((c) => Math.abs(frame[i + c]! - colour[c]!) <= tolerance);
  let [own, teeth, n] = [0, 0, 0];
  for (let y = MOUTH.y; y < MOUTH.y + TEETH_DEPTH; y++)
    for (let x = MOUTH.x - HALF + TEETH_INSET + 2; x < MOUTH.x + HALF - TEETH_INSET - 2; x++, n++) {
      const i = (y * SIZE + x) * 4;
      if (palette.some((colour) => near(i, colour))) own++;
      if (near(i, TEETH)) teeth++;
    }
  return { own: own / n, teeth };
}
