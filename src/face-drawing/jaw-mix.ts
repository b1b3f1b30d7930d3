// A trained face's mouths drawn on a 2D canvas, in the browser (palkit's rig-2d.ts, where WebGL is missing;
// rig-gl.ts is the WebGL twin and draws the same picture) and on the server (the generated videos'
// render/rig-video.ts, @napi-rs/canvas). Mouths whose jaws sit at different heights are not cross-faded as
// they are, which would show both chins at once: every mouth, and the idle frame's own mouth region under
// them, is drawn where it shows what the blended face shows (jaw.ts: jawSource), then the mouths are mixed.
// A vertical move that varies with height (and fades out beside the jaw) is drawn as bands of rows in
// columns, each one drawImage scaled to its rows, in an unturned cell-sized canvas (whole-pixel edges: no
// seams), then placed at the pose. Inside the opening the mouths are not cross-faded where they disagree
// (mouth-interior.ts): the moved cells are read back over the opening's box and the picked mouth drawn over the
// mix there, by how much it shows alone. The canvases come from the caller (DOM or Node), so this file imports none.
import { cellOrigin, mouthTransform, type FaceRig, type MouthPose } from '../protocol/faces/rig.js';
import { JAW_SIDES, JAW_STILL, MADE_JAW_DROP, blendedJaw, jawDropOf, jawSideShare, jawSource, jawsDiffer, patchAlpha } from './jaw.js';
import { INTERIOR, interiorPull, interiorShare, openingLens, openingOf, openingZoneAt } from './mouth-interior.js';
import type { Viseme } from '../protocol/visemes.js';

/**
 * Rows per band below the lips, where the move varies with height (a fifth of a half-width: 8 rows for a trained
 * face's mouth, finer for a smaller one, whose first band would otherwise squash the upper teeth); columns per
 * strip where it fades sideways.
 */
const BAND_HALF_WIDTHS = 0.2;
const STRIP = 8;

/** What of a 2D context this draws with (the DOM's and @napi-rs/canvas's both have it). */
export interface JawContext<S> {
  globalAlpha: number;
  globalCompositeOperation: string;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  drawImage(image: S, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
  /** Read back (scratch canvases only) where the mouths' interiors are mixed. */
  getImageData(sx: number, sy: number, sw: number, sh: number): { data: Uint8ClampedArray };
  putImageData(image: { data: Uint8ClampedArray }, dx: number, dy: number): void;
}

export interface JawSurface<S> {
  canvas: S;
  context: JawContext<S>;
}

/** How the caller makes a scratch canvas, and an image of RGBA pixels. */
export interface JawSurfaces<S> {
  surface(width: number, height: number): JawSurface<S>;
  image(rgba: Uint8ClampedArray, width: number, height: number): S;
}

export interface JawMixer<S> {
  /** Draws the mouth mix `weights` over idle frame `frame`, already on `context`, at its pose. */
  draw(context: JawContext<S>, frame: number, pose: MouthPose, weights: ReadonlyMap<Viseme, number>): void;
}

type Affine = [number, number, number, number, number, number];

function inverse([a, b, c, d, e, f]: Affine): Affine {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export function createJawMixer<S>(rig: FaceRig, idle: S, mouths: S, surfaces: JawSurfaces<S>): JawMixer<S> {
  const sheet = rig.mouths.sheet;
  const [cw, ch] = [sheet.cellWidth, sheet.cellHeight];
  const a = rig.mouths.mouthWidth / 2;
  const dropOf = (v: Viseme) => jawDropOf(v, rig.visemes[v].source);
  const band = Math.max(2, Math.round(BAND_HALF_WIDTHS * a));
  let scratch: { under: JawSurface<S>; moved: JawSurface<S>; overlay: JawSurface<S>; mask: S } | null = null;
  const canvases = () =>
    (scratch ??= {
      under: surfaces.surface(cw, ch),
      moved: surfaces.surface(cw, ch),
      overlay: surfaces.surface(cw, ch),
      mask: surfaces.image(maskOf(cw, ch, a), cw, ch),
    });

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
  const moveJaw = (target: JawContext<S>, source: S, sx: number, sy: number, drop: number, jaw: number) => {
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
      for (let y = top; y < bottom; y += band) {
        const y1 = Math.min(bottom, y + band);
        const [s0, s1] = [from(y), from(y1)];
        if (s1 > s0) target.drawImage(source, sx + x, sy + s0, width, s1 - s0, x, y, width, y1 - y);
      }
      if (bottom < ch) target.drawImage(source, sx + x, sy + bottom, width, ch - bottom, x, bottom, width, ch - bottom);
    }
  };

  /** The idle frame's mouth region, unturned into a cell (the inverse of the pose's placement). */
  const unturnIdle = (u: JawContext<S>, frame: number, place: Affine) => {
    u.setTransform(1, 0, 0, 1, 0, 0);
    u.clearRect(0, 0, cw, ch);
    const [ia, ib, ic, id, ie, iff] = inverse(place);
    u.setTransform(ia, ib, ic, id, ie + cw / 2, iff + ch / 2);
    const [ix, iy] = cellOrigin(rig.idle, frame);
    u.drawImage(idle, ix, iy, rig.idle.cellWidth, rig.idle.cellHeight, 0, 0, rig.width, rig.height);
  };

  return {
    draw(context, frame, pose, weights) {
      const shown = [...weights].filter(([v, w]) => v !== 'rest' && w > 0);
      if (!shown.length) return;
      const place = mouthTransform(pose, rig.mouths.mouthWidth);
      const jaw = blendedJaw(weights, dropOf);
      const moves = jawsDiffer(weights, jaw, dropOf);
      const rest = Math.max(0, weights.get('rest') ?? 0);
      let total = rest;
      // Inside the opening the mouths are not cross-faded where they disagree (mouth-interior.ts): that needs
      // their pixels, read back over the opening's box, when more than one shape shows and one is open.
      const inside = shown.length + (rest > 0 ? 1 : 0) > 1 && shown.some(([v]) => openingOf(v) > 0);
      const box = inside ? openingBox(Math.max(...shown.map(([v]) => openingOf(v)))) : null;
      const read = (c: JawContext<S>) => c.getImageData(box!.x, box!.y, box!.width, box!.height).data;
      const sources: Array<{ pixels: Uint8ClampedArray; weight: number; drop: number; opening: number }> = [];
      let under: Uint8ClampedArray | null = null;
      if (!moves) {
        // Every jaw where the idle frame has it (footage mouths, or lips only): the patches as they are.
        if (inside) {
          const u = canvases().under.context;
          unturnIdle(u, frame, place);
          under = read(u);
        }
        for (const [viseme, weight] of shown) {
          const [sx, sy] = cellOrigin(sheet, rig.visemes[viseme].cell);
          total += weight;
          context.globalAlpha = weight / total;
          context.setTransform(...place);
          context.drawImage(mouths, sx, sy, cw, ch, -cw / 2, -ch / 2, cw, ch);
          if (inside) {
            const m = canvases().moved.context;
            m.setTransform(1, 0, 0, 1, 0, 0);
            m.clearRect(0, 0, cw, ch);
            m.drawImage(mouths, sx, sy, cw, ch, 0, 0, cw, ch);
            sources.push({ pixels: read(m), weight, drop: jaw, opening: openingOf(viseme) });
          }
        }
      } else {
        const { under: u0, moved, mask } = canvases();
        const [u, m] = [u0.context, moved.context];
        // The idle frame's mouth region, unturned into a cell, its jaw moved to the blend's, feathered into the frame.
        unturnIdle(u, frame, place);
        moveJaw(m, u0.canvas, 0, 0, 0, jaw);
        m.globalCompositeOperation = 'destination-in';
        m.drawImage(mask, 0, 0, cw, ch, 0, 0, cw, ch);
        m.globalCompositeOperation = 'source-over';
        context.globalAlpha = 1;
        context.setTransform(...place);
        context.drawImage(moved.canvas, 0, 0, cw, ch, -cw / 2, -ch / 2, cw, ch);
        // Read once drawn (read before, @napi-rs/canvas drew it with the mouths drawn into it later); the box lies where the mask is whole.
        if (inside) under = read(m);
        // Each mouth, its jaw moved to the blend's, over what is there with its share of the total so far.
        for (const [viseme, weight] of shown) {
          const [sx, sy] = cellOrigin(sheet, rig.visemes[viseme].cell);
          moveJaw(m, mouths, sx, sy, dropOf(viseme), jaw);
          total += weight;
          context.globalAlpha = weight / total;
          context.drawImage(moved.canvas, 0, 0, cw, ch, -cw / 2, -ch / 2, cw, ch);
          if (inside) sources.push({ pixels: read(m), weight, drop: dropOf(viseme), opening: openingOf(viseme) });
        }
      }
      if (!box || !under) return;
      // Over the cross-fade: the picked mouth alone where the mouths disagree inside the opening.
      const o = canvases().overlay.context;
      o.setTransform(1, 0, 0, 1, 0, 0);
      o.clearRect(0, 0, cw, ch);
      const image = o.getImageData(box.x, box.y, box.width, box.height);
      showInterior(image.data, box, under, sources, rest / total, total, moves ? jaw : null);
      o.putImageData(image, box.x, box.y);
      context.globalAlpha = 1;
      context.setTransform(...place);
      context.drawImage(
        canvases().overlay.canvas,
        box.x,
        box.y,
        box.width,
        box.height,
        box.x - cw / 2,
        box.y - ch / 2,
        box.width,
        box.height,
      );
    },
  };

  /** The cell's pixels that an opening this far may cover (its zone moved by at most the largest jaw drop). */
  function openingBox(opening: number): { x: number; y: number; width: number; height: number } {
    const x = Math.max(0, Math.floor(cw / 2 - a));
    const y = Math.max(0, Math.floor(ch / 2 + (INTERIOR.top - INTERIOR.topFade / 2) * a));
    const bottom = Math.min(ch, Math.ceil(ch / 2 + (opening + Math.max(...Object.values(MADE_JAW_DROP))) * a));
    return { x, y, width: Math.min(cw, Math.ceil(cw / 2 + a)) - x, height: bottom - y };
  }

  /**
   * Writes into `out` (the box's RGBA) the picked source's colour with, as alpha, how much of it shows alone
   * (mouth-interior.ts): drawn over the cross-fade, that is the same picture rig-gl.ts's shader makes.
   * `sources` are the mouths (their pixels unpremultiplied, over `under`: the idle frame's own mouth region),
   * `restShare` the idle frame's own mouth's share, `jaw` the blended jaw the mouths were moved to (null: none moved).
   */
  function showInterior(
    out: Uint8ClampedArray,
    box: { x: number; y: number; width: number; height: number },
    under: Uint8ClampedArray,
    sources: Array<{ pixels: Uint8ClampedArray; weight: number; drop: number; opening: number }>,
    restShare: number,
    total: number,
    jaw: number | null,
  ): void {
    const shares = sources.map((s) => s.weight / total);
    // The pick depends on the weights only: one source for the whole frame (-1: the idle frame's own mouth).
    let picked = -1;
    let pull = interiorPull(restShare, 0);
    shares.forEach((share, i) => {
      if (interiorPull(share, sources[i]!.opening) > pull) [picked, pull] = [i, interiorPull(share, sources[i]!.opening)];
    });
    const others = 1 - (picked < 0 ? restShare : shares[picked]!);
    if (others <= 1e-3) return;
    const [colour, mixed] = [
      [0, 0, 0],
      [0, 0, 0],
    ];
    // The box lies within the jaw's whole width (jawSideShare 1): where a source shows a row depends on the row only.
    const lenses = Array.from({ length: box.width }, (_, x) => openingLens((box.x + x + 0.5 - cw / 2) / a));
    for (let y = 0; y < box.height; y++) {
      const v = (box.y + y + 0.5 - ch / 2) / a;
      const rows = sources.map((s) => (jaw === null ? v : jawSource(v, 1, s.drop, jaw)));
      for (let x = 0; x < box.width; x++) {
        let zone = 0;
        for (let i = 0; i < sources.length; i++) zone = Math.max(zone, openingZoneAt(lenses[x]!, rows[i]!, sources[i]!.opening));
        if (zone <= 0) continue;
        const o = (y * box.width + x) * 4;
        // Each source's colour over the idle frame; the picked one, and the mix of all the others.
        const [ur, ug, ub] = [under[o]!, under[o + 1]!, under[o + 2]!];
        for (let c = 0; c < 3; c++) mixed[c] = picked >= 0 ? restShare * under[o + c]! : 0;
        for (let i = 0; i < sources.length; i++) {
          const p = sources[i]!.pixels;
          const alpha = p[o + 3]! / 255;
          const target = i === picked ? colour : mixed;
          const share = i === picked ? 1 : shares[i]!;
          if (i === picked) colour.fill(0);
          target[0]! += share * (alpha * p[o]! + (1 - alpha) * ur);
          target[1]! += share * (alpha * p[o + 1]! + (1 - alpha) * ug);
          target[2]! += share * (alpha * p[o + 2]! + (1 - alpha) * ub);
        }
        if (picked < 0) [colour[0], colour[1], colour[2]] = [ur, ug, ub];
        let difference = 0;
        for (let c = 0; c < 3; c++) difference = Math.max(difference, Math.abs(colour[c]! - mixed[c]! / others) / 255);
        out[o] = colour[0]!;
        out[o + 1] = colour[1]!;
        out[o + 2] = colour[2]!;
        out[o + 3] = Math.round(255 * interiorShare(zone, difference));
      }
    }
  }
}

/** The made patch's alpha over a cell (RGBA, white): where the idle frame's moved jaw shows. */
function maskOf(cw: number, ch: number, a: number): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(cw * ch * 4).fill(255);
  for (let y = 0; y < ch; y++)
    for (let x = 0; x < cw; x++) rgba[(y * cw + x) * 4 + 3] = Math.round(255 * patchAlpha((x + 0.5 - cw / 2) / a, (y + 0.5 - ch / 2) / a));
  return rgba;
}
