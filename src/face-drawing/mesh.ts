// A version-2 rig's face as a deforming 2D triangle mesh (rig.ts `mesh`): FaceMesh's 468 landmarks on each idle
// frame, two rings round the head (the hair line and neck, where the warp fades out) and points on the frame's
// edge, triangulated once. Each point moves by a few blend shapes (jaw, lip spread, rounding, press, lower lip
// tucked, upper lip lifted, each eye's lid) scaled by the mouth shapes heard, and the head as a whole moves by a
// small turn and shift while the background holds still. This module works out where every point goes on a
// frame; mesh-paint.ts draws it on a 2D canvas (the browser's, and the service's generated videos) and
// palkit's rig-gl.ts with WebGL, so all three draw the same geometry.
import type { Viseme } from '../protocol/visemes.js';
import { eyeShares, gazeAt } from './gaze.js';
import { MESH_CHANNELS, type FaceRig, type MeshChannel, type RigMesh } from '../protocol/faces/rig.js';

export type Channels = Record<MeshChannel, number>;

/** How much of each blend shape a mouth shape takes (the rest: none). */
export const VISEME_CHANNELS: Readonly<Record<Viseme, Partial<Channels>>> = {
  rest: {},
  A: { jaw: 1, lift: 0.5 },
  E: { jaw: 0.55, wide: 0.7, lift: 0.7 },
  I: { jaw: 0.3, wide: 1, lift: 0.8 },
  O: { jaw: 0.75, round: 1, lift: 0.2 },
  U: { jaw: 0.35, round: 1.3 },
  M: { press: 1 },
  F: { jaw: 0.15, tuck: 1, lift: 0.8 },
  L: { jaw: 0.45, lift: 0.5 },
  S: { jaw: 0.12, wide: 0.6, lift: 0.9 },
};

export function noChannels(): Channels {
  return Object.fromEntries(MESH_CHANNELS.map((c) => [c, 0])) as Channels;
}

/** The blend shapes of a mix of mouth shapes: each shape's by its weight (rest's weight keeps the face at rest). */
export function channelsOf(weights: ReadonlyMap<Viseme, number>): Channels {
  const out = noChannels();
  let total = 0;
  for (const [, w] of weights) total += Math.max(0, w);
  if (total <= 0) return out;
  for (const [viseme, w] of weights) {
    if (w <= 0) continue;
    for (const [c, v] of Object.entries(VISEME_CHANNELS[viseme]) as Array<[MeshChannel, number]>) out[c] += (v * w) / total;
  }
  return out;
}

/** The head's own motion on a frame: a shift (frame pixels), a turn (radians) and a zoom, about the face's centre. */
export interface HeadMotion {
  dx: number;
  dy: number;
  angle: number;
  zoom: number;
  /** Where the eyes look (gaze.ts): their texture slid this far (frame pixels), their corners kept. */
  gaze?: [number, number];
}
export const STILL_HEAD: HeadMotion = { dx: 0, dy: 0, angle: 0, zoom: 1 };

/** A canvas transform (a–f) taking x to (a x + c y + e, b x + d y + f). */
export type Affine = [number, number, number, number, number, number];

export const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

/** The mouth's inside: cells of the mouth sheet, each placed at an anchor in the mouth's own axes. */
export const INSIDE = {
  width: 128,
  height: 128,
  /** Cell pixels per mouth width. */
  scale: 96,
  /** Cell 0: the throat, centred on the opening. Cell 1: the upper teeth, hanging from the upper lip's middle (this row). Cell 2: the lower teeth and tongue, standing on the lower lip's middle. */
  upperRow: 24,
  lowerRow: 104,
} as const;

export interface InsideLayer {
  cell: number;
  /** Cell pixels (relative to the cell's corner) to frame pixels. */
  place: Affine;
  /** Once this layer is drawn, the opening is darkened this much (SHADE's colour at this alpha; 0: not at all). */
  dim: number;
}

/**
 * The mouth's own shadow (issue 51): a real mouth is darkest when its lips first part, a dark slit; the lit
 * throat, tongue and teeth show as it opens wide. So the depth (throat, tongue and lower teeth, not the upper
 * teeth in front of them) is darkened while the lips' gap is small, and a shadow runs inside the lips' edge at
 * every opening. Both keep the opening dark where FaceMesh reads the lips' inner edge, and change the mouth's
 * pixels most as the lips first part (the lip-sync rows' first motion).
 */
export const SHADE = {
  /** Its colour: the deep shadow of a mouth. */
  rgb: [22, 8, 6] as const,
  /** The depth's darkness while the lips barely part, fading out as their gap grows from `from` to `to` (mouth widths; a full A ≈ 0.33). */
  depth: 0.92,
  /** The share of that darkness left once the lips are wide apart: a real open mouth's depth stays in shadow, and a lit inside reads as lip. */
  open: 0.15,
  from: 0.03,
  to: 0.2,
  /**
   * The lips' shadow: its darkness at their edge, fading out this far inside (mouth widths); more of both while
   * the lips barely part. (At 0.5 wide open it drew a grey line along the upper teeth's top edge.)
   */
  rim: 0.2,
  rimNarrow: 0.7,
  rimWidth: 0.035,
  rimWidthNarrow: 0.055,
} as const;

export interface MeshFrame {
  /** Where each point is on the idle frame (texture coordinates, frame pixels), and where it is drawn. */
  source: Float32Array;
  target: Float32Array;
  /** Triangles whose three points are not where the frame's own pixels already put them. */
  moved: number[];
  /** The head, moved whole (the rig's `ring` clipped to `headPlace`), when it moves. */
  headPlace: Affine | null;
  /** The mouth's opening (drawn under the lips when open), and its inside's layers. */
  hole: number[] | null;
  inside: InsideLayer[];
  /** The lips' shadow inside the opening's edge (drawn last, over the inside): its darkness and width (frame pixels). */
  rim: { alpha: number; width: number } | null;
}

/** The head's motion as a transform about (cx, cy). */
export function headAffine(head: HeadMotion, cx: number, cy: number): Affine {
  const [cos, sin] = [head.zoom * Math.cos(head.angle), head.zoom * Math.sin(head.angle)];
  return [cos, sin, -sin, cos, cx + head.dx - cos * cx + sin * cy, cy + head.dy - sin * cx - cos * cy];
}

const apply = ([a, b, c, d, e, f]: Affine, x: number, y: number): [number, number] => [a * x + c * y + e, b * x + d * y + f];

/** The face's centre on a frame (mean of its points that move whole with the head). */
function centreOf(mesh: RigMesh, points: readonly number[]): [number, number] {
  let [x, y, n] = [0, 0, 0];
  for (let i = 0; i < mesh.head.length; i++) {
    if (mesh.head[i]! < 1) continue;
    x += points[2 * i]!;
    y += points[2 * i + 1]!;
    n++;
  }
  return n ? [x / n, y / n] : [0, 0];
}

/** How far the upper teeth rise and the lower sink behind fully rounded lips (mouth widths). */
const ROUND_COVER = { upper: 0.07, lower: 0.03 };

/** How far inside the lips their inner edge's texture is taken, in mouth widths (2 px of a 64 px mouth). */
const LIP_INSET = 0.03;

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** Whether a mix moves the mouth's lips: then its inside is drawn in the opening. */
function opens(c: Channels): boolean {
  // Pressed or spread lips too: what shows between them is then the inside's dark line, never the frame's own teeth.
  return c.jaw + c.lift + c.round + c.press + c.wide + c.tuck > 0.005;
}

/**
 * Where every point of idle frame `frame` goes with blend shapes `channels` and the head's motion `head`: the
 * points, the triangles to draw over the frame as it is, and the mouth's inside.
 */
export function meshFrame(rig: FaceRig, frame: number, channels: Channels, head: HeadMotion = STILL_HEAD): MeshFrame {
  const mesh = rig.mesh!;
  const base = mesh.frames[frame % mesh.frames.length]!;
  const pose = rig.poses[frame]!;
  const n = mesh.head.length;
  const source = Float32Array.from(base);
  const target = new Float32Array(2 * n);
  const [cos, sin] = [pose.width * Math.cos(pose.angle), pose.width * Math.sin(pose.angle)];
  // The lips' inner edge takes its texture a little inside the lips: FaceMesh puts it on the teeth or the
  // dark corners of a smile by a pixel or two, which a stretched lip would carry along.
  // (Growing with the mouth's move from rest, so that a face at rest is its frame exactly, in every renderer.)
  const lipMove = channels.jaw + channels.lift + channels.round + channels.press + channels.wide + channels.tuck;
  const inset = LIP_INSET * pose.width * Math.min(1, 4 * lipMove);
  let [hx0, hy0] = [0, 0];
  for (const i of mesh.hole) [hx0, hy0] = [hx0 + base[2 * i]! / mesh.hole.length, hy0 + base[2 * i + 1]! / mesh.hole.length];
  const [ca, sa] = [Math.cos(pose.angle), Math.sin(pose.angle)];
  for (const i of mesh.hole) {
    // Up or down along the mouth's vertical (never along the lip line: the corners' skin is beyond them), less towards the corners.
    const [dx, dy] = [base[2 * i]! - hx0, base[2 * i + 1]! - hy0];
    const [u, v] = [(dx * ca + dy * sa) / pose.width, -dx * sa + dy * ca];
    const k = inset * Math.sign(v) * Math.max(0, 1 - (u / 0.45) ** 2);
    source[2 * i] = base[2 * i]! - sa * k;
    source[2 * i + 1] = base[2 * i + 1]! + ca * k;
  }
  const gaze = head.gaze;
  if (gaze && (gaze[0] !== 0 || gaze[1] !== 0)) {
    const share = eyeShares(mesh);
    for (let i = 0; i < n; i++) {
      if (!share[i]) continue;
      source[2 * i] = source[2 * i]! - gaze[0] * share[i]!;
      source[2 * i + 1] = source[2 * i + 1]! - gaze[1] * share[i]!;
    }
  }
  const [cx, cy] = centreOf(mesh, base);
  const still = head.dx === 0 && head.dy === 0 && head.angle === 0 && head.zoom === 1;
  const H = headAffine(head, cx, cy);
  const active = MESH_CHANNELS.filter((c) => Math.abs(channels[c]) > 1e-4);
  /** Where point i is with only `only` of the blend shapes (the teeth follow the jaw alone, not the lips). */
  const moveOf = (i: number, only: readonly MeshChannel[]): [number, number] => {
    let [u, v] = [0, 0];
    for (const c of only) {
      const w = channels[c];
      if (!w) continue;
      const shape = mesh.shapes[c];
      u += w * shape[2 * i]!;
      v += w * shape[2 * i + 1]!;
    }
    return [base[2 * i]! + cos * u - sin * v, base[2 * i + 1]! + sin * u + cos * v];
  };
  const follow = (i: number, x: number, y: number): [number, number] => {
    const k = mesh.head[i]!;
    if (still || k === 0) return [x, y];
    const [hx, hy] = apply(H, x, y);
    return [x + k * (hx - x), y + k * (hy - y)];
  };
  for (let i = 0; i < n; i++) {
    const [x, y] = follow(i, ...moveOf(i, active));
    target[2 * i] = x;
    target[2 * i + 1] = y;
  }
  // A triangle is drawn when its points are not where the layer under it (the frame, or the head moved whole) has them.
  const moved: number[] = [];
  const t = mesh.triangles;
  for (let k = 0; k < t.length; k += 3) {
    const [p, q, r] = [t[k]!, t[k + 1]!, t[k + 2]!];
    const whole = !still && mesh.head[p] === 1 && mesh.head[q] === 1 && mesh.head[r] === 1;
    let off = false;
    for (const i of [p, q, r]) {
      const [ex, ey] = whole ? apply(H, base[2 * i]!, base[2 * i + 1]!) : [base[2 * i]!, base[2 * i + 1]!];
      if (Math.abs(target[2 * i]! - ex) > 0.02 || Math.abs(target[2 * i + 1]! - ey) > 0.02) off = true;
      // (Or its texture slides: the eyes' look.)
      if (Math.abs(source[2 * i]! - base[2 * i]!) > 0.02 || Math.abs(source[2 * i + 1]! - base[2 * i + 1]!) > 0.02) off = true;
    }
    if (off) moved.push(k / 3);
  }
  let hole: number[] | null = null;
  let rim: MeshFrame['rim'] = null;
  const inside: InsideLayer[] = [];
  if (opens(channels)) {
    hole = mesh.hole;
    const layer = (cell: number, x: number, y: number, row: number, dim = 0): InsideLayer => {
      const k = 1 / INSIDE.scale;
      const [a, b, c, d] = [cos * k, sin * k, -sin * k, cos * k];
      const ox = -INSIDE.width / 2;
      return { cell, place: [a, b, c, d, x + a * ox + c * -row, y + b * ox + d * -row], dim };
    };
    // The lips' gap beyond rest's, along the mouth's vertical (mouth widths).
    const gapOf = (p: ArrayLike<number>) =>
      -sa * (p[2 * mesh.lower]! - p[2 * mesh.upper]!) + ca * (p[2 * mesh.lower + 1]! - p[2 * mesh.upper + 1]!);
    const gap = Math.max(0, (gapOf(target) - gapOf(base)) / pose.width);
    const narrow = 1 - smooth(SHADE.from, SHADE.to, gap);
    const depth = SHADE.depth * (SHADE.open + (1 - SHADE.open) * narrow);
    rim = {
      alpha: SHADE.rim + (SHADE.rimNarrow - SHADE.rim) * narrow,
      width: (SHADE.rimWidth + (SHADE.rimWidthNarrow - SHADE.rimWidth) * narrow) * pose.width,
    };
    let [hx, hy] = [0, 0];
    for (const i of hole) {
      hx += target[2 * i]!;
      hy += target[2 * i + 1]!;
    }
    inside.push(layer(0, hx / hole.length, hy / hole.length, INSIDE.height / 2));
    // The upper teeth keep to the skull (the head's motion only); the lower ride the jaw.
    // Rounded lips come forward and down over the teeth: an O or a U shows the teeth's edges, not a smile's
    // whole row in a small round mouth (the least believable frame of a smiling photo), so the rows draw back
    // behind the lips as the lips round.
    // The lower row (and the tongue) first, then the depth's shadow, then the upper teeth in front of them (as
    // the upper incisors stand in front of the lower ones).
    const behind = (p: [number, number], v: number): [number, number] => [p[0] - sin * v, p[1] + cos * v];
    const round = Math.max(0, channels.round);
    inside.push(layer(2, ...follow(mesh.lower, ...behind(moveOf(mesh.lower, ['jaw']), ROUND_COVER.lower * round)), INSIDE.lowerRow, depth));
    inside.push(layer(1, ...follow(mesh.upper, ...behind(moveOf(mesh.upper, []), -ROUND_COVER.upper * round)), INSIDE.upperRow));
  }
  return { source, target, moved, headPlace: still ? null : H, hole, inside, rim };
}

/**
 * The affine transform taking triangle (s0, s1, s2) onto (t0, t1, t2), as a canvas transform: drawing the
 * source image under it puts the source triangle's pixels on the target triangle. Null when degenerate.
 */
export function triangleAffine(s: readonly number[], t: readonly number[]): Affine | null {
  const [x0, y0, x1, y1, x2, y2] = s as [number, number, number, number, number, number];
  const [u0, v0, u1, v1, u2, v2] = t as [number, number, number, number, number, number];
  const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (Math.abs(det) < 1e-6) return null;
  const a = ((u1 - u0) * (y2 - y0) - (u2 - u0) * (y1 - y0)) / det;
  const c = ((u2 - u0) * (x1 - x0) - (u1 - u0) * (x2 - x0)) / det;
  const b = ((v1 - v0) * (y2 - y0) - (v2 - v0) * (y1 - y0)) / det;
  const d = ((v2 - v0) * (x1 - x0) - (v1 - v0) * (x2 - x0)) / det;
  return [a, b, c, d, u0 - a * x0 - c * y0, v0 - b * x0 - d * y0];
}

/** A generated head's life for a photo at `ms`: slow sway, a nod that follows the jaw a little, breathing, looks aside. */
export function livingHead(ms: number, jaw: number, scale: number): HeadMotion {
  const t = ms / 1000;
  const s = (period: number, phase = 0) => Math.sin((2 * Math.PI * t) / period + phase);
  const px = scale / 512;
  return {
    dx: px * (2.2 * s(7.3) + 1.1 * s(3.1, 1)),
    dy: px * (1.3 * s(5.7, 2) + 1.0 * s(4.2) + 2.5 * jaw),
    angle: 0.008 * s(9.1, 0.5) + 0.004 * s(4.3, 2) + 0.01 * jaw,
    zoom: 1 + 0.004 * s(4.2, 1.2),
    gaze: gazeAt(ms, scale),
  };
}

/**
 * A blink's course (ms): the lids close, stay closed (60–120 ms asked; 110 here, two frames or more of a 20-25 fps
 * video: at 80 the clip face's captured blinks kept 67 % or more of the eye's opening), and open more slowly.
 */
export const BLINK = { closing: 70, closed: 110, opening: 110 };

/**
 * When the eyes blink: every 2–8 s, most often about every 4 s (a person's spread), each course BLINK;
 * `closure(now)` says how far the lids are down (0 open, 1 closed). `random` picks the gaps (a seeded one
 * gives the same blinks on every render of a generated video).
 */
export class Blinks {
  private start: number;
  constructor(
    private readonly random: () => number,
    now: number,
  ) {
    this.start = now + 1200 + 1800 * random();
  }

  closure(now: number): number {
    const length = BLINK.closing + BLINK.closed + BLINK.opening;
    while (now > this.start + length) this.start += length + gap(this.random());
    const t = now - this.start;
    if (t < 0) return 0;
    if (t < BLINK.closing) return easeIn(t / BLINK.closing);
    if (t < BLINK.closing + BLINK.closed) return 1;
    return 1 - easeOut((t - BLINK.closing - BLINK.closed) / BLINK.opening);
  }
}

/** A gap between blinks (ms), from 2 to 8 s, most near 3–4 s. */
function gap(r: number): number {
  return 2000 + 6000 * r * r * (0.6 + 0.4 * r);
}
const easeIn = (t: number) => t * t;
const easeOut = (t: number) => 1 - (1 - t) * (1 - t);

/** A seeded random number generator (mulberry32): the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The idle frame shown at `ms`: a version-2 clip's loop plays forwards then backwards (its last frame never
 * jumps back to its first: no seam however the footage ends); a version-1 rig's loops as it always did.
 */
export function idleFrameAt(rig: Pick<FaceRig, 'fps' | 'idle' | 'mesh'>, ms: number): number {
  const count = rig.idle.count;
  const step = Math.floor((Math.max(0, ms) / 1000) * rig.fps);
  if (!rig.mesh || count < 3) return step % count;
  const period = 2 * (count - 1);
  const k = step % period;
  return k < count ? k : period - k;
}
