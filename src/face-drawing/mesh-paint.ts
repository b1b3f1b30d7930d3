// A version-2 rig's frame on a 2D canvas (the browser's where it has no GPU WebGL, palkit's rig-face.ts; the
// service's generated videos, render/rig-video.ts): the idle frame drawn whole, the head moved whole where it
// moves (clipped to its outline), the mouth's inside in the opening, then every triangle that moved, drawn in
// script over the box they cover (mesh-raster.ts) from the idle frame's pixels read back before anything else.
// rig-gl.ts draws the same triangles with WebGL. The canvases come from the caller (DOM or Node).
import { cellOrigin, type FaceRig } from '../protocol/faces/rig.js';
import { rasterTriangle, type PixelBox } from './mesh-raster.js';
import { INSIDE, SHADE, meshFrame, type Channels, type HeadMotion, type MeshFrame } from './mesh.js';

/** What of a 2D context this draws with (the DOM's and @napi-rs/canvas's both have it). */
export interface MeshContext<S> {
  globalAlpha: number;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineJoin: string;
  fill(): void;
  stroke(): void;
  save(): void;
  restore(): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  clip(): void;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  drawImage(image: S, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
  getImageData(sx: number, sy: number, sw: number, sh: number): { data: Uint8ClampedArray; width: number; height: number };
  putImageData(image: { data: Uint8ClampedArray; width: number; height: number }, dx: number, dy: number): void;
}

/** The lips' shadow is drawn in this many steps of width (a ramp; fewer read as an outline at 4x). */
const RIM_STEPS = 5;

/** How far each drawn triangle is grown past its edges (frame pixels): neighbours overlap, no hairline between them. */
const GROW = 0.6;

/** Draws idle frame `frame` deformed by `channels` and `head` onto `ctx` (frame pixels; the canvas is rig-sized). */
export function paintMeshFrame<S>(
  ctx: MeshContext<S>,
  rig: FaceRig,
  idle: S,
  inside: S,
  frame: number,
  channels: Channels,
  head?: HeadMotion,
): MeshFrame {
  const m = meshFrame(rig, frame, channels, head);
  const [ix, iy] = cellOrigin(rig.idle, frame);
  const [cw, ch] = [rig.idle.cellWidth, rig.idle.cellHeight];
  // The cell is drawn at the rig's size (cells are the frame's size; a smaller one is scaled up).
  const [kx, ky] = [rig.width / cw, rig.height / ch];
  const drawIdle = () => ctx.drawImage(idle, ix, iy, cw, ch, 0, 0, cw * kx, ch * ky);
  ctx.globalAlpha = 1;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  drawIdle();
  const mesh = rig.mesh!;
  // The undeformed frame under the moved triangles, read before anything is drawn over it.
  const source = m.moved.length ? pixelBox(ctx, boxOf(m.source, m.moved, mesh.triangles, 2, rig)) : null;
  if (m.headPlace) {
    ctx.save();
    polygon(
      ctx,
      mesh.ring.map((i) => [m.target[2 * i]!, m.target[2 * i + 1]!]),
    );
    ctx.clip();
    ctx.setTransform(...m.headPlace);
    drawIdle();
    ctx.restore();
  }
  if (m.hole) {
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    const hole = m.hole.map((i): [number, number] => [m.target[2 * i]!, m.target[2 * i + 1]!]);
    polygon(ctx, hole);
    ctx.clip();
    for (const layer of m.inside) {
      const [sx, sy] = cellOrigin(rig.mouths.sheet, layer.cell);
      ctx.setTransform(...layer.place);
      ctx.drawImage(inside, sx, sy, INSIDE.width, INSIDE.height, 0, 0, INSIDE.width, INSIDE.height);
      if (layer.dim > 0) {
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.fillStyle = shadow(layer.dim);
        polygon(ctx, hole);
        ctx.fill();
      }
    }
    if (m.rim) {
      // The lips' shadow: the outline stroked in RIM_STEPS widths (clipped to the opening: their inner halves),
      // darkest at the edge and fading inwards (as rig-gl-mesh.ts's ramp).
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.lineJoin = 'round';
      polygon(ctx, hole);
      for (let k = RIM_STEPS; k >= 1; k--) {
        ctx.lineWidth = (2 * m.rim.width * k) / RIM_STEPS;
        ctx.strokeStyle = shadow(1 - (1 - m.rim.alpha) ** (1 / RIM_STEPS));
        ctx.stroke();
      }
    }
    ctx.restore();
  }
  if (source) {
    // Every moved triangle, in the mesh's order (a closing lid's fold over each other), into one read-back of
    // the box they cover, written back once (mesh-raster.ts).
    const t = mesh.triangles;
    const target = pixelBox(ctx, boxOf(m.target, m.moved, t, 4 * GROW + 1, rig));
    if (target) {
      const onHole = m.hole ? holeCorners(rig) : null;
      const [s, d] = [new Array<number>(6), new Array<number>(6)];
      const blunt: [boolean, boolean, boolean] = [false, false, false];
      for (const k of m.moved) {
        for (let j = 0; j < 3; j++) {
          const i = t[3 * k + j]!;
          [s[2 * j], s[2 * j + 1], d[2 * j], d[2 * j + 1]] = [
            m.source[2 * i]!,
            m.source[2 * i + 1]!,
            m.target[2 * i]!,
            m.target[2 * i + 1]!,
          ];
          blunt[j] = onHole?.has(i) ?? false;
        }
        rasterTriangle(target, source, s, d, GROW, blunt);
      }
      ctx.putImageData(target.image, target.x, target.y);
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  return m;
}

const holeCornersOf = new WeakMap<FaceRig, Set<number>>();

/** The mesh's points round the mouth's opening. */
function holeCorners(rig: FaceRig): Set<number> {
  let corners = holeCornersOf.get(rig);
  if (!corners) holeCornersOf.set(rig, (corners = new Set(rig.mesh!.hole)));
  return corners;
}

type Box = { x: number; y: number; width: number; height: number };

/** The whole-pixel box round `triangles`' points in `points`, `margin` px wider, within the frame. */
function boxOf(points: Float32Array, triangles: number[], corners: number[], margin: number, rig: FaceRig): Box {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const k of triangles)
    for (let j = 0; j < 3; j++) {
      const i = corners[3 * k + j]!;
      const [x, y] = [points[2 * i]!, points[2 * i + 1]!];
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  const [left, top] = [Math.max(0, Math.floor(x0 - margin)), Math.max(0, Math.floor(y0 - margin))];
  const [right, bottom] = [Math.min(rig.width, Math.ceil(x1 + margin)), Math.min(rig.height, Math.ceil(y1 + margin))];
  return { x: left, y: top, width: right - left, height: bottom - top };
}

type ReadBack = PixelBox & { image: { data: Uint8ClampedArray; width: number; height: number } };

/** The canvas's pixels in `box` (null when it is empty). */
function pixelBox<S>(ctx: MeshContext<S>, box: Box): ReadBack | null {
  if (box.width < 2 || box.height < 2) return null;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const image = ctx.getImageData(box.x, box.y, box.width, box.height);
  return { image, data: image.data, width: image.width, height: image.height, x: box.x, y: box.y };
}

/** The mouth's shadow colour at `alpha`, as a canvas colour. */
function shadow(alpha: number): string {
  return `rgba(${SHADE.rgb.join(', ')}, ${alpha.toFixed(3)})`;
}

/** A closed path through `points`. */
function polygon<S>(ctx: MeshContext<S>, points: Array<[number, number]>): void {
  ctx.beginPath();
  points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.closePath();
}
