// A version-2 rig's mesh learnt from the resting face's landmarks (face-drawing/mesh.ts draws it): the points
// (FaceMesh's 468, a ring round the head at the hair line and neck, a wider ring where the warp fades out, and
// the frame's edge), each blend shape's move of every point, and the triangles, made once with the mouth held
// open so that none spans the lips. Moves are in mouth widths along the mouth's axes (u right, v down), from the
// lip line; a real jaw turns about the ears, so the chin and lower lip drop fully and the jaw's corners little.
import { MESH_CHANNELS, type MeshChannel, type MouthPose, type RigMesh } from '../../../../protocol/faces/rig.js';
import { triangulate } from './triangulate.js';

type Point = [number, number];

/** FaceMesh's outline of the face, clockwise from the forehead's top. */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93,
  234, 127, 162, 21, 54, 103, 67, 109,
];
/** The inner lips, in order round the opening (upper from the left corner, then lower back). */
export const UPPER_INNER = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308];
export const LOWER_INNER = [95, 88, 178, 87, 14, 317, 402, 318, 324];
/** The lower lip's rings outside its inner edge, point for point with LOWER_INNER: two within the lip, its outer edge. */
export const LOWER_LIP_RINGS = [
  [96, 89, 179, 86, 15, 316, 403, 319, 325],
  [77, 90, 180, 85, 16, 315, 404, 320, 307],
  [146, 91, 181, 84, 17, 314, 405, 321, 375],
];
/** The skin just below the lower lip, point for point with its outer edge (the last ring): it follows most of the lip's drop, or it folds. */
const BELOW_LOWER_LIP = [43, 106, 182, 83, 18, 313, 406, 335, 273];
export const HOLE = [...UPPER_INNER, ...[...LOWER_INNER].reverse()];
/** Each eye's upper lid over its lower one, point by point, the skin above the lid (its crease), and the brow's ring above that. */
const EYES = {
  blinkR: {
    upper: [246, 161, 160, 159, 158, 157, 173],
    lower: [7, 163, 144, 145, 153, 154, 155],
    crease: [247, 30, 29, 27, 28, 56, 190],
    brow: [113, 225, 224, 223, 222, 221, 189],
  },
  blinkL: {
    upper: [466, 388, 387, 386, 385, 384, 398],
    lower: [249, 390, 373, 374, 380, 381, 382],
    crease: [467, 260, 259, 257, 258, 286, 414],
    brow: [342, 445, 444, 443, 442, 441, 413],
  },
} as const;

/**
 * How much of its lid's travel each crease point takes, outer corner first: the fold over the eye's outer corner
 * stays and the next barely moves (at 0.4 the skin above the outer corner stretched: 13-15 levels of (a) on some
 * of a clip's idle frames). Further in it follows: held there too, FaceMesh read a closed eye less closed.
 */
const CREASE_SHARE = [0, 0.12, 0.4, 0.4, 0.4, 0.4, 0.4];
/** How far a closed lid sinks past the lower lid's landmark at its middle, in eye widths. */
const LID_SINK = 0.1;
/** The lower lip's drop at full jaw (mouth widths): a wide-open mouth. */
const JAW_DROP = 0.3;
/**
 * The rings round the head: the head's outline (moves whole with it), and where the warp has faded out. Under
 * the chin the outline takes nearly all of the chin's drop (the skin there rides the jawbone): at 0.6 the neck's
 * edge stayed and FaceMesh saw a chin that barely moved.
 */
const RING = { head: 1.22, fade: 1.6, fadeHead: 0, jawAtHead: 0.95 };
/** Points on the frame's edge, this far apart. */
const EDGE_STEP = 64;
const LANDMARKS = 468;

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** The mesh's points on one frame: landmarks, the two rings, the frame's edge (frame pixels). */
export function meshPoints(landmarks: Point[], size: { width: number; height: number }): Point[] {
  const oval = FACE_OVAL.map((i) => landmarks[i]!);
  const [cx, cy] = oval.reduce(([x, y], p) => [x + p[0] / oval.length, y + p[1] / oval.length], [0, 0]);
  const clamp = (p: Point, m: number): Point => [Math.min(size.width - m, Math.max(m, p[0])), Math.min(size.height - m, Math.max(m, p[1]))];
  const ring = (k: number, margin: number) => oval.map((p) => clamp([cx + (p[0] - cx) * k, cy + (p[1] - cy) * k], margin));
  return [...landmarks.slice(0, LANDMARKS), ...ring(RING.head, 2), ...ring(RING.fade, 10), ...edgePoints(size)];
}

function edgePoints({ width, height }: { width: number; height: number }): Point[] {
  const out: Point[] = [];
  for (let x = 0; x < width; x += EDGE_STEP) out.push([x, 0], [width - x, height]);
  for (let y = 0; y < height; y += EDGE_STEP) out.push([width, y], [0, height - y]);
  return out;
}

/** Into the mouth's axes: u right, v down, in mouth widths from its centre. */
function localOf(pose: MouthPose) {
  const [cos, sin] = [Math.cos(pose.angle), Math.sin(pose.angle)];
  return (p: Point): Point => [
    ((p[0] - pose.x) * cos + (p[1] - pose.y) * sin) / pose.width,
    (-(p[0] - pose.x) * sin + (p[1] - pose.y) * cos) / pose.width,
  ];
}

export interface MeshModel {
  mesh: Omit<RigMesh, 'frames' | 'motion'>;
  /** The mouth opening's outline with the mouth at rest, in frame pixels (for the teeth it shows). */
  restHole: Point[];
}

/** Blend shapes, head shares and triangles from the resting frame's points (meshPoints) and its mouth pose. */
export function meshModel(points: Point[], pose: MouthPose): MeshModel {
  const n = points.length;
  const local = points.map(localOf(pose));
  const shapes = Object.fromEntries(MESH_CHANNELS.map((c) => [c, new Array<number>(2 * n).fill(0)])) as Record<MeshChannel, number[]>;
  const set = (c: MeshChannel, i: number, du: number, dv: number) => {
    shapes[c][2 * i] = Math.round(du * 1e4) / 1e4;
    shapes[c][2 * i + 1] = Math.round(dv * 1e4) / 1e4;
  };
  // The lip line: midway between the inner lips, column by column (u from the left inner corner to the right).
  const pairs: Point[] = [[local[78]![0], local[78]![1]]];
  for (let k = 0; k < LOWER_INNER.length; k++) {
    const [up, low] = [local[UPPER_INNER[k + 1]!]!, local[LOWER_INNER[k]!]!];
    pairs.push([(up[0] + low[0]) / 2, (up[1] + low[1]) / 2]);
  }
  pairs.push([local[308]![0], local[308]![1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const split = (u: number): number => {
    if (u <= pairs[0]![0]) return pairs[0]![1];
    for (let k = 1; k < pairs.length; k++) {
      const [a, b] = [pairs[k - 1]!, pairs[k]!];
      if (u <= b[0]) return a[1] + ((b[1] - a[1]) * (u - a[0])) / Math.max(1e-6, b[0] - a[0]);
    }
    return pairs[pairs.length - 1]![1];
  };
  const corner = Math.max(0.2, (Math.abs(local[78]![0]) + Math.abs(local[308]![0])) / 2);
  const lens = (u: number) => 0.2 + 0.8 * Math.max(0, 1 - (u / corner) ** 2) ** 0.6;
  const upperInner = new Set(UPPER_INNER.slice(1, -1));
  const lowerInner = new Set(LOWER_INNER);
  /** How much of the jaw's drop a point takes. */
  const jawShare = (i: number): number => {
    const [u, v] = local[i]!;
    if (upperInner.has(i)) return 0;
    const below = v - split(u);
    const broad = 1 - 0.75 * smooth(0.45, 1.3, Math.abs(u));
    if (lowerInner.has(i)) return lens(u);
    const under = Math.abs(u) < corner ? smooth(0, 0.04, below) : smooth(0, 0.25, below);
    return (
      under *
      (Math.abs(u) < corner
        ? lens(u) + (broad - lens(u)) * smooth(0.06, 0.4, below)
        : broad * smooth(0.06, 0.4, below) + 0.2 * (1 - smooth(0.06, 0.4, below)))
    );
  };
  const onFace = (i: number) => i < LANDMARKS;
  for (let i = 0; i < LANDMARKS; i++) {
    const [u, v] = local[i]!;
    const below = v - split(u);
    // Spread and rounding pull the lips and the skin below them; above, they fade within a fifth of a mouth
    // width (at 0.35 an O dragged the smile's creases beside the nose along: 34 levels of change there).
    const near = Math.exp(-((below / (below < 0 ? 0.2 : 0.35)) ** 2)) * (1 - smooth(0.55, 1.1, Math.abs(u)));
    // Rounding draws the lips in, not the cheeks above the corners nor the jaw beside them: above the lip line
    // it fades within a tenth of a mouth width (at a fifth, a U moved the smile's creases by the nose: 26 levels
    // there), below it within 0.15, and beyond the corners by 0.6 from the middle. (Fading out at 1.1 and 0.35
    // pinched the jaw's sides in by 8 px at a full O, and FaceMesh then saw the chin barely drop: 0.4 % of the
    // face's height where it dropped 10 %.)
    const rim = Math.exp(-((below / (below < 0 ? 0.1 : 0.15)) ** 2)) * (1 - smooth(0.4, 0.6, Math.abs(u)));
    const lip = Math.abs(u) < corner + 0.05 ? Math.exp(-((below / 0.2) ** 2)) : 0;
    set('jaw', i, 0, JAW_DROP * jawShare(i));
    set('wide', i, 0.16 * u * near, -0.03 * near * Math.min(1, (u / corner) ** 2));
    // Rounded lips come together and forward, not apart: an O's height is its jaw's, a U's a small round
    // opening. (Parting them 0.03 mouth widths each made a U as tall as an O, a dark hole FaceMesh read as wide
    // open over a chin that had barely moved.)
    set('round', i, -0.3 * u * rim, 0);
    set('press', i, 0, -0.35 * below * lip);
    set('tuck', i, 0, below > 0 && Math.abs(u) < corner ? -0.06 * lens(u) * (1 - smooth(0.15, 0.35, below)) : 0);
    set(
      'lift',
      i,
      0,
      below < 0 && Math.abs(u) < corner ? -(upperInner.has(i) ? 0.06 : 0.035 * Math.exp(-((below / 0.2) ** 2))) * lens(u) : 0,
    );
  }
  // The lower lip rides the jaw whole: each of its rings (FaceMesh's, from the inner edge out) drops at least as
  // far as its inner edge at the same place along the lip. Else beside the corners, where the inner lip lies
  // nearer the middle than the outer, the inner edge overtook the outer one at the widest A (5 px of lip then
  // -3): the lip thinned to a line there.
  for (const ring of LOWER_LIP_RINGS) {
    ring.forEach((i, k) => {
      const inner = LOWER_INNER[k]!;
      shapes.jaw[2 * i + 1] = Math.max(shapes.jaw[2 * i + 1]!, shapes.jaw[2 * inner + 1]!);
    });
  }
  BELOW_LOWER_LIP.forEach((i, k) => {
    const outer = LOWER_LIP_RINGS[2]![k]!;
    shapes.jaw[2 * i + 1] = Math.round(Math.max(shapes.jaw[2 * i + 1]!, 0.85 * shapes.jaw[2 * outer + 1]!) * 1e4) / 1e4;
  });
  // Pressed lips meet at the lip line.
  for (let k = 0; k < LOWER_INNER.length; k++) {
    const [up, low] = [UPPER_INNER[k + 1]!, LOWER_INNER[k]!];
    const gap = local[low]![1] - local[up]![1];
    shapes.press[2 * up + 1] = Math.round((shapes.press[2 * up + 1]! + gap / 2) * 1e4) / 1e4;
    shapes.press[2 * low + 1] = Math.round((shapes.press[2 * low + 1]! - gap / 2) * 1e4) / 1e4;
  }
  // The lids: the upper comes down 92 % of the way, the lower up the rest; the crease follows, the brow barely.
  const eyeWidth = (eye: (typeof EYES)['blinkL']) =>
    Math.hypot(...([0, 1] as const).map((a) => local[eye.upper[0]!]![a] - local[eye.lower[eye.lower.length - 1]!]![a]));
  for (const [channel, eye] of Object.entries(EYES) as Array<[MeshChannel, (typeof EYES)['blinkL']]>) {
    eye.upper.forEach((up, k) => {
      const low = eye.lower[k]!;
      const [du, dv] = [local[low]![0] - local[up]![0], local[low]![1] - local[up]![1]];
      // At the outer corner the lid barely travels and its lashes fan out past FaceMesh's corner: there the two
      // lids meet halfway (the upper lid's lashes are not swept over the skin beside the eye: 22 levels of
      // change there when they were; nor left open: a dark dot at the closed lid's corner when neither moved).
      const [upShare, lowShare] = k === 0 ? [0.55, 0.45] : [0.92, 0.08];
      // Both lids then sink a little past the lower lid's landmark (LID_SINK eye widths, none at the corners):
      // FaceMesh puts it a pixel or two above the lid's real edge on a small face, whose dark rim showed under a
      // lid closed onto the landmark (and the eye read open).
      const sink = LID_SINK * eyeWidth(eye) * Math.sin((Math.PI * k) / eye.upper.length);
      set(channel, up, upShare * du, upShare * dv + sink);
      set(channel, low, -lowShare * du, -lowShare * dv + sink);
      set(channel, eye.crease[k]!, CREASE_SHARE[k]! * du, CREASE_SHARE[k]! * dv);
      set(channel, eye.brow[k]!, 0.06 * du, 0.06 * dv);
    });
  }
  // The head's ring follows the chin a little (the skin under it stretches); the fading ring and the edge stay.
  const headRing = FACE_OVAL.map((_, k) => LANDMARKS + k);
  const fadeRing = FACE_OVAL.map((_, k) => LANDMARKS + FACE_OVAL.length + k);
  FACE_OVAL.forEach((i, k) => set('jaw', headRing[k]!, 0, RING.jawAtHead * shapes.jaw[2 * i + 1]!));
  const head = points.map((_, i) => (onFace(i) || headRing.includes(i) ? 1 : fadeRing.includes(i) ? RING.fadeHead : 0));

  // Triangles made with the inner lower lip a little apart, so that none joins the upper lip to the lower one
  // across the opening (moving more than the lips would turn triangles over when the mouth is at rest).
  const opened = points.map((p, i): Point => {
    const dv = lowerInner.has(i) ? 0.08 * lens(local[i]![0]) * pose.width : 0;
    return [p[0] - Math.sin(pose.angle) * dv, p[1] + Math.cos(pose.angle) * dv];
  });
  const holeOpen = HOLE.map((i) => opened[i]!);
  const triangles: number[] = [];
  for (const [a, b, c] of triangulate(opened)) {
    const centre: Point = [(opened[a]![0] + opened[b]![0] + opened[c]![0]) / 3, (opened[a]![1] + opened[b]![1] + opened[c]![1]) / 3];
    // Inside the opening, or across it (an upper inner lip point with a lower one: near the corners, where the
    // lips are barely parted, the centre can fall just outside the outline).
    if (inside(centre, holeOpen) || ([a, b, c].some((i) => upperInner.has(i)) && [a, b, c].some((i) => lowerInner.has(i)))) continue;
    triangles.push(a, b, c);
  }
  return {
    mesh: { triangles, shapes, head, ring: headRing, hole: HOLE, upper: 13, lower: 14 },
    restHole: HOLE.map((i) => points[i]!),
  };
}

/** Whether `p` is inside the polygon (even-odd). */
export function inside(p: Point, polygon: Point[]): boolean {
  let yes = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [a, b] = [polygon[i]!, polygon[j]!];
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) yes = !yes;
  }
  return yes;
}
