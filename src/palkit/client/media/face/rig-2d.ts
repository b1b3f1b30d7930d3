// A trained face's mouths drawn with canvas 2D (rig-face.ts draws the idle frame, then this; rig-gl.ts is the
// WebGL twin and draws the same picture). Mouths whose jaws sit at different heights are not cross-faded as
// they are, which would show both chins at once: the jaw of each mouth, and the idle frame's own under them,
// is first moved to the blended jaw (protocol/faces/jaw.ts), then the mouths are mixed. A vertical move that
// varies with height (and fades out beside the jaw) is drawn as bands of rows in columns, each one drawImage
// scaled to its rows, in an unturned cell-sized canvas (whole-pixel edges: no seams), then placed at the pose.
import { cellOrigin, mouthTransform, type FaceRig, type MouthPose } from '../../../../protocol/faces/rig.js';
import { JAW_SIDES, JAW_STILL, blendedJaw, jawDropOf, jawSideShare, jawSource, jawsDiffer, patchAlpha } from '../../../../protocol/faces/jaw.js';
import type { Viseme } from '../../../../protocol/visemes.js';

/** Rows per band below the lips, where the move varies with height; columns per strip where it fades sideways. */
const BAND = 8;
const STRIP = 8;

type Affine = [number, number, number, number, number, number];

function inverse([a, b, c, d, e, f]: Affine): Affine {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export interface CanvasMouths {
  /** Draws the mouth mix `weights` over idle frame `frame`, already on `context`, at its pose. */
  draw(context: CanvasRenderingContext2D, frame: number, pose: MouthPose, weights: ReadonlyMap<Viseme, number>): void;
}

export function createCanvasMouths(rig: FaceRig, idle: ImageBitmap, mouths: ImageBitmap): CanvasMouths {
  const sheet = rig.mouths.sheet;
  const [cw, ch] = [sheet.cellWidth, sheet.cellHeight];
  const a = rig.mouths.mouthWidth / 2;
  const dropOf = (v: Viseme) => jawDropOf(v, rig.visemes[v].source);
  const cell = () => Object.assign(document.createElement('canvas'), { width: cw, height: ch });
  let scratch: { under: HTMLCanvasElement; moved: HTMLCanvasElement; mask: HTMLCanvasElement } | null = null;
  const canvases = () => (scratch ??= { under: cell(), moved: cell(), mask: maskOf(cw, ch, a) });

  // Columns: one where the whole jaw moves, strips of STRIP pixels beside it where the move fades out, and
  // one each side beyond (nothing moves there), each with its share of the move.
  const whole = Math.floor(cw / 2 - JAW_SIDES.whole * a);
  const still = Math.max(0, Math.floor(cw / 2 - JAW_SIDES.still * a));
  const columns: Array<[number, number, number]> = [];
  const column = (x0: number, x1: number) => {
    if (x1 > x0) columns.push([x0, x1 - x0, jawSideShare((x0 + x1) / 2 / a - cw / 2 / a)]);
  };
  column(0, still);
  for (let x = still; x < whole; x += STRIP) column(x, Math.min(whole, x + STRIP));
  column(whole, cw - whole);
  for (let x = cw - whole; x < cw - still; x += STRIP) column(x, Math.min(cw - still, x + STRIP));
  column(cw - still, cw);

  /** `source`'s cell at (sx, sy) onto `target`, its jaw (dropped by `drop` half-widths) moved to `jaw`. */
  const moveJaw = (target: CanvasRenderingContext2D, source: CanvasImageSource, sx: number, sy: number, drop: number, jaw: number) => {
    target.setTransform(1, 0, 0, 1, 0, 0);
    target.clearRect(0, 0, cw, ch);
    // Above the lips nothing moves: one rectangle; below, bands in each column.
    const top = Math.floor(ch / 2);
    target.drawImage(source, sx, sy, cw, top, 0, 0, cw, top);
    for (const [x, width, side] of columns) {
      const from = (y: number) => Math.max(0, Math.min(ch, ch / 2 + a * jawSource((y - ch / 2) / a, side, drop, jaw)));
      if (side === 0 || drop === jaw) {
        target.drawImage(source, sx + x, sy + top, width, ch - top, x, top, width, ch - top);
        continue;
      }
      // Past the chin nothing moves either.
      const bottom = Math.min(ch, Math.ceil(ch / 2 + JAW_STILL.to * a));
      for (let y = top; y < bottom; y += BAND) {
        const y1 = Math.min(bottom, y + BAND);
        const [s0, s1] = [from(y), from(y1)];
        if (s1 > s0) target.drawImage(source, sx + x, sy + s0, width, s1 - s0, x, y, width, y1 - y);
      }
      if (bottom < ch) target.drawImage(source, sx + x, sy + bottom, width, ch - bottom, x, bottom, width, ch - bottom);
    }
  };

  return {
    draw(context, frame, pose, weights) {
      const shown = [...weights].filter(([v, w]) => v !== 'rest' && w > 0);
      if (!shown.length) return;
      const place = mouthTransform(pose, rig.mouths.mouthWidth);
      const jaw = blendedJaw(weights, dropOf);
      const moves = jawsDiffer(weights, jaw, dropOf);
      let total = weights.get('rest') ?? 0;
      if (!moves) {
        // Every jaw where the idle frame has it (footage mouths, or lips only): the patches as they are.
        for (const [viseme, weight] of shown) {
          const [sx, sy] = cellOrigin(sheet, rig.visemes[viseme].cell);
          total += weight;
          context.globalAlpha = weight / total;
          context.setTransform(...place);
          context.drawImage(mouths, sx, sy, cw, ch, -cw / 2, -ch / 2, cw, ch);
        }
        return;
      }
      const { under, moved, mask } = canvases();
      // Software canvases (willReadFrequently): hundreds of small draws cost less there than as GPU calls.
      const u = under.getContext('2d', { willReadFrequently: true })!;
      const m = moved.getContext('2d', { willReadFrequently: true })!;
      // The idle frame's mouth region, unturned into a cell, its jaw moved to the blend's, feathered into the frame.
      u.setTransform(1, 0, 0, 1, 0, 0);
      u.clearRect(0, 0, cw, ch);
      const [ia, ib, ic, id, ie, iff] = inverse(place);
      u.setTransform(ia, ib, ic, id, ie + cw / 2, iff + ch / 2);
      const [ix, iy] = cellOrigin(rig.idle, frame);
      u.drawImage(idle, ix, iy, rig.idle.cellWidth, rig.idle.cellHeight, 0, 0, rig.width, rig.height);
      moveJaw(m, under, 0, 0, 0, jaw);
      m.globalCompositeOperation = 'destination-in';
      m.drawImage(mask, 0, 0);
      m.globalCompositeOperation = 'source-over';
      context.globalAlpha = 1;
      context.setTransform(...place);
      context.drawImage(moved, -cw / 2, -ch / 2);
      // Each mouth, its jaw moved to the blend's, over what is there with its share of the total so far.
      for (const [viseme, weight] of shown) {
        const [sx, sy] = cellOrigin(sheet, rig.visemes[viseme].cell);
        moveJaw(m, mouths, sx, sy, dropOf(viseme), jaw);
        total += weight;
        context.globalAlpha = weight / total;
        context.drawImage(moved, -cw / 2, -ch / 2);
      }
    },
  };
}

/** The made patch's alpha over a cell: where the idle frame's moved jaw shows. */
function maskOf(cw: number, ch: number, a: number): HTMLCanvasElement {
  const canvas = Object.assign(document.createElement('canvas'), { width: cw, height: ch });
  const image = new ImageData(cw, ch);
  for (let y = 0; y < ch; y++)
    for (let x = 0; x < cw; x++) image.data[(y * cw + x) * 4 + 3] = Math.round(255 * patchAlpha((x + 0.5 - cw / 2) / a, (y + 0.5 - ch / 2) / a));
  canvas.getContext('2d')!.putImageData(image, 0, 0);
  return canvas;
}
