// A version-2 rig's frame on a 2D canvas (the browser's where it has no GPU WebGL, palkit's rig-face.ts; the
// service's generated videos, render/rig-video.ts): the idle frame drawn whole, the head moved whole where it
// moves (clipped to its outline), the mouth's inside in the opening, then every triangle that moved, each an
// affine draw of the idle frame clipped to the triangle (grown by a fraction of a pixel so no seam shows).
// rig-gl.ts draws the same triangles with WebGL. The canvases come from the caller (DOM or Node).
import { cellOrigin, type FaceRig } from '../protocol/faces/rig.js';
import { INSIDE, SHADE, meshFrame, triangleAffine, type Channels, type HeadMotion, type MeshFrame } from './mesh.js';

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
  if (m.headPlace) {
    ctx.save();
    polygon(
      ctx,
      mesh.ring.map((i) => [m.target[2 * i]!, m.target[2 * i + 1]!]),
      0,
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
    polygon(ctx, hole, 0);
    ctx.clip();
    for (const layer of m.inside) {
      const [sx, sy] = cellOrigin(rig.mouths.sheet, layer.cell);
      ctx.setTransform(...layer.place);
      ctx.drawImage(inside, sx, sy, INSIDE.width, INSIDE.height, 0, 0, INSIDE.width, INSIDE.height);
      if (layer.dim > 0) {
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.fillStyle = shadow(layer.dim);
        polygon(ctx, hole, 0);
        ctx.fill();
      }
    }
    if (m.rim) {
      // The lips' shadow: the outline stroked in RIM_STEPS widths (clipped to the opening: their inner halves),
      // darkest at the edge and fading inwards (as rig-gl-mesh.ts's ramp).
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.lineJoin = 'round';
      polygon(ctx, hole, 0);
      for (let k = RIM_STEPS; k >= 1; k--) {
        ctx.lineWidth = (2 * m.rim.width * k) / RIM_STEPS;
        ctx.strokeStyle = shadow(1 - (1 - m.rim.alpha) ** (1 / RIM_STEPS));
        ctx.stroke();
      }
    }
    ctx.restore();
  }
  const t = mesh.triangles;
  for (const k of m.moved) {
    const idx = [t[3 * k]!, t[3 * k + 1]!, t[3 * k + 2]!];
    const s = idx.flatMap((i) => [m.source[2 * i]!, m.source[2 * i + 1]!]);
    const d = idx.flatMap((i) => [m.target[2 * i]!, m.target[2 * i + 1]!]);
    const affine = triangleAffine(s, d);
    if (!affine) continue;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    polygon(
      ctx,
      [
        [d[0]!, d[1]!],
        [d[2]!, d[3]!],
        [d[4]!, d[5]!],
      ],
      GROW,
    );
    ctx.clip();
    ctx.setTransform(...affine);
    // Only the source triangle's box (and a pixel round it) is read: drawing the whole frame under each clip cost
    // several times more.
    const [x0, x1] = [
      Math.max(0, Math.floor(Math.min(s[0]!, s[2]!, s[4]!) - 2)),
      Math.min(rig.width, Math.ceil(Math.max(s[0]!, s[2]!, s[4]!) + 2)),
    ];
    const [y0, y1] = [
      Math.max(0, Math.floor(Math.min(s[1]!, s[3]!, s[5]!) - 2)),
      Math.min(rig.height, Math.ceil(Math.max(s[1]!, s[3]!, s[5]!) + 2)),
    ];
    if (x1 > x0 && y1 > y0) ctx.drawImage(idle, ix + x0 / kx, iy + y0 / ky, (x1 - x0) / kx, (y1 - y0) / ky, x0, y0, x1 - x0, y1 - y0);
    ctx.restore();
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  return m;
}

/** The mouth's shadow colour at `alpha`, as a canvas colour. */
function shadow(alpha: number): string {
  return `rgba(${SHADE.rgb.join(', ')}, ${alpha.toFixed(3)})`;
}

/**
 * A closed path through `points` (in order round a convex or star-shaped outline), each edge pushed `grow`
 * pixels outwards (a thin triangle's corners would barely move if pushed from its centre), corners capped.
 */
function polygon<S>(ctx: MeshContext<S>, points: Array<[number, number]>, grow: number): void {
  const n = points.length;
  let area = 0;
  for (let i = 0; i < n; i++) area += points[i]![0] * points[(i + 1) % n]![1] - points[(i + 1) % n]![0] * points[i]![1];
  const sign = area >= 0 ? 1 : -1;
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    let [x, y] = points[i]!;
    if (grow > 0) {
      const [p, q] = [points[(i + n - 1) % n]!, points[(i + 1) % n]!];
      // The outward normals of the edges into and out of this corner; the corner moves along their sum.
      const normal = (a: readonly number[], b: readonly number[]) => {
        const [dx, dy] = [b[0]! - a[0]!, b[1]! - a[1]!];
        const len = Math.hypot(dx, dy) || 1;
        return [(sign * dy) / len, (-sign * dx) / len];
      };
      const [n1, n2] = [normal(p, points[i]!), normal(points[i]!, q)];
      const [sx, sy] = [n1[0]! + n2[0]!, n1[1]! + n2[1]!];
      // |s| / 2 is the cosine of half the corner's turn: the corner moves grow / that along s (capped at a sharp one).
      const len = Math.hypot(sx, sy) || 1;
      const k = Math.min(4 * grow, grow / Math.max(0.25, len / 2));
      [x, y] = [x + (sx / len) * k, y + (sy / len) * k];
    }
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.closePath();
}
