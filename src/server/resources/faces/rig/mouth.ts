// What the landmarks say about a mouth: where it sits (the pose the renderer places a patch by) and its
// shape (opening, width, rounding, lips pressed, lower lip tucked), and which viseme that shape is.
// FaceMesh indices: lip corners 61/291, inner lips 13/14, outer lips 0/17, eye corners 33/263,
// eyelids 159/145 and 386/374.
import type { Viseme } from '../../../../protocol/visemes.js';
import type { MouthPose } from '../../../../protocol/faces/rig.js';

type Point = readonly [number, number, ...number[]];
type Mesh = ReadonlyArray<Point>;

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const pt = (mesh: Mesh, i: number): Point => mesh[i] ?? [0, 0];

/** The mouth's centre, corner-to-corner width and roll (from eyes and lip corners together). */
export function mouthPose(mesh: Mesh): MouthPose {
  const left = pt(mesh, 61);
  const right = pt(mesh, 291);
  const upper = pt(mesh, 13);
  const lower = pt(mesh, 14);
  const eyeAngle = Math.atan2(pt(mesh, 263)[1] - pt(mesh, 33)[1], pt(mesh, 263)[0] - pt(mesh, 33)[0]);
  const lipAngle = Math.atan2(right[1] - left[1], right[0] - left[0]);
  return {
    x: (left[0] + right[0] + upper[0] + lower[0]) / 4,
    y: (left[1] + right[1] + upper[1] + lower[1]) / 4,
    width: Math.max(1, dist(left, right)),
    angle: (eyeAngle * 2 + lipAngle) / 3,
  };
}

/**
 * Where the lips meet, below the pose's centre along the head's vertical, in mouth widths: at the middle
 * (between the inner lips) and at the corners (higher in a smile). A made viseme parts the lips there.
 */
export interface LipLine {
  middle: number;
  corners: number;
}

export function lipLine(mesh: Mesh, pose: MouthPose): LipLine {
  const down = (p: Point) => (-Math.sin(pose.angle) * (p[0] - pose.x) + Math.cos(pose.angle) * (p[1] - pose.y)) / pose.width;
  const mid = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  return { middle: down(mid(pt(mesh, 13), pt(mesh, 14))), corners: down(mid(pt(mesh, 61), pt(mesh, 291))) };
}

/** Shape measures, each relative to the distance between the outer eye corners (scale-free). */
export interface MouthShape {
  /** Gap between the inner lips. */
  open: number;
  /** Corner to corner. */
  width: number;
  /** Upper plus lower lip thickness. */
  lips: number;
  /** Lower lip thickness alone (it thins when tucked under the teeth). */
  lowerLip: number;
  /** Eyelid gap over eye width, both eyes averaged (blinks). */
  eyes: number;
}

export function mouthShape(mesh: Mesh): MouthShape {
  const eyes = Math.max(1, dist(pt(mesh, 33), pt(mesh, 263)));
  const eyeOpen =
    (dist(pt(mesh, 159), pt(mesh, 145)) / Math.max(1, dist(pt(mesh, 33), pt(mesh, 133))) +
      dist(pt(mesh, 386), pt(mesh, 374)) / Math.max(1, dist(pt(mesh, 362), pt(mesh, 263)))) /
    2;
  return {
    open: dist(pt(mesh, 13), pt(mesh, 14)) / eyes,
    width: dist(pt(mesh, 61), pt(mesh, 291)) / eyes,
    lips: (dist(pt(mesh, 0), pt(mesh, 13)) + dist(pt(mesh, 14), pt(mesh, 17))) / eyes,
    lowerLip: dist(pt(mesh, 14), pt(mesh, 17)) / eyes,
    eyes: eyeOpen,
  };
}

/**
 * The resting shape of a face: medians over its frames, the opening from the quarter least open (a clip
 * may speak most of the time; FaceMesh's inner lips jitter by a few hundredths from frame to frame).
 */
export function restShape(shapes: MouthShape[]): MouthShape {
  const at = (values: number[], q: number) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? 0;
  const median = (values: number[]) => at(values, 0.5);
  return {
    open: at(
      shapes.map((s) => s.open),
      0.25,
    ),
    width: median(shapes.map((s) => s.width)),
    lips: median(shapes.map((s) => s.lips)),
    lowerLip: median(shapes.map((s) => s.lowerLip)),
    eyes: median(shapes.map((s) => s.eyes)),
  };
}

/** A shape is at rest when its lips are barely apart and its width is the face's usual one. */
export function isResting(shape: MouthShape, rest: MouthShape): boolean {
  return shape.open <= rest.open + 0.05 && Math.abs(shape.width / rest.width - 1) < 0.08;
}

/** The viseme a mouth shape shows, measured against the same face at rest. */
export function classifyViseme(shape: MouthShape, rest: MouthShape): Viseme {
  // How far the lips are apart beyond rest (jitter stays under 0.05).
  const open = shape.open - rest.open;
  const width = shape.width / rest.width;
  if (open < 0.06) {
    if (shape.lips < rest.lips * 0.75) return 'M';
    if (shape.lowerLip < rest.lowerLip * 0.7) return 'F';
    if (width > 1.06) return 'S';
    return 'rest';
  }
  if (width < 0.86) return open > 0.14 ? 'O' : 'U';
  if (open < 0.12) return width > 1.06 ? 'I' : shape.lowerLip < rest.lowerLip * 0.7 ? 'F' : 'L';
  if (open < 0.2) return width > 1.02 ? 'E' : 'L';
  return 'A';
}

/** Eyes closed: lids much nearer than at rest. */
export function isBlink(shape: MouthShape, rest: MouthShape): boolean {
  return shape.eyes < rest.eyes * 0.45;
}
