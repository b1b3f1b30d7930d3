// A trained face's mouths drawn with canvas 2D (rig-face.ts draws the idle frame, then this; rig-gl.ts is the
// WebGL twin and draws the same picture). Mouths whose jaws sit at different heights are not cross-faded as
// they are, which would show both chins at once: the jaw of each mouth, and the idle frame's own under them,
// is first moved to the blended jaw (protocol/faces/jaw.ts), then the mouths are mixed. A vertical move that
// varies with height is drawn as horizontal bands, each one drawImage scaled to its rows, in an unturned
// cell-sized canvas (whole-pixel band edges: no seams), which is then placed at the frame's pose.
import { cellOrigin, mouthTransform, type FaceRig, type MouthPose } from '../../../../protocol/faces/rig.js';
import { blendedJaw, jawBlendShare, jawDropOf, patchAlpha } from '../../../../protocol/faces/jaw.js';
import type { Viseme } from '../../../../protocol/visemes.js';

/** Rows per band below the lips, where the move varies. */
const BAND = 6;

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

  /** `source`'s cell at (sx, sy) onto `target`, its jaw moved down by `move` half-widths (up when negative). */
  const moveJaw = (target: CanvasRenderingContext2D, source: CanvasImageSource, sx: number, sy: number, move: number) => {
    target.setTransform(1, 0, 0, 1, 0, 0);
    target.clearRect(0, 0, cw, ch);
    const from = (y: number) => Math.max(0, Math.min(ch, y - move * a * jawBlendShare((y - ch / 2) / a)));
    // Above the lips nothing moves: one rectangle; below, bands.
    const top = Math.floor(ch / 2);
    target.drawImage(source, sx, sy, cw, top, 0, 0, cw, top);
    for (let y = top; y < ch; y += BAND) {
      const y1 = Math.min(ch, y + BAND);
      const [s0, s1] = [from(y), from(y1)];
      if (s1 > s0) target.drawImage(source, sx, sy + s0, cw, s1 - s0, 0, y, cw, y1 - y);
    }
  };

  return {
    draw(context, frame, pose, weights) {
      const shown = [...weights].filter(([v, w]) => v !== 'rest' && w > 0);
      if (!shown.length) return;
      const place = mouthTransform(pose, rig.mouths.mouthWidth);
      const jaw = blendedJaw(weights, dropOf);
      const moves = jaw !== 0 || shown.some(([v]) => dropOf(v) !== jaw);
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
      const u = under.getContext('2d')!;
      const m = moved.getContext('2d')!;
      // The idle frame's mouth region, unturned into a cell, its jaw moved to the blend's, feathered into the frame.
      u.setTransform(1, 0, 0, 1, 0, 0);
      u.clearRect(0, 0, cw, ch);
      const [ia, ib, ic, id, ie, iff] = inverse(place);
      u.setTransform(ia, ib, ic, id, ie + cw / 2, iff + ch / 2);
      const [ix, iy] = cellOrigin(rig.idle, frame);
      u.drawImage(idle, ix, iy, rig.idle.cellWidth, rig.idle.cellHeight, 0, 0, rig.width, rig.height);
      moveJaw(m, under, 0, 0, jaw);
      m.globalCompositeOperation = 'destination-in';
      m.drawImage(mask, 0, 0);
      m.globalCompositeOperation = 'source-over';
      context.globalAlpha = 1;
      context.setTransform(...place);
      context.drawImage(moved, -cw / 2, -ch / 2);
      // Each mouth, its jaw moved to the blend's, over what is there with its share of the total so far.
      for (const [viseme, weight] of shown) {
        const [sx, sy] = cellOrigin(sheet, rig.visemes[viseme].cell);
        moveJaw(m, mouths, sx, sy, jaw - dropOf(viseme));
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
