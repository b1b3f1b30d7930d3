// The face's regions by FaceMesh's 468 landmarks (MediaPipe's canonical indices): the points the frames are
// aligned by, the lips, the eyes and their six eye-aspect points, the chin, and the face oval.
import { distance, type Point } from './image.js';

export type Mesh = Point[];

/** The face's outline, clockwise from the top of the forehead. */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93,
  234, 127, 162, 21, 54, 103, 67, 109,
];
/** The inside edge of the lips (the mouth's opening). */
export const INNER_LIPS = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95];
/** The outside edge of the lips (the whole mouth: lips and opening). */
export const OUTER_LIPS = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];
/** The eyes' lid edges, each a closed loop. */
export const EYES = [
  [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
  [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249],
];
/** Per eye: the corners and two upper and two lower lid points (p1…p6 of the eye aspect ratio). */
const EYE_ASPECT = [
  [33, 160, 158, 133, 153, 144],
  [362, 385, 387, 263, 373, 380],
];
/**
 * What the frames are aligned by: the forehead, the nose's ridge, the eyes' corners and the temples —
 * none moves when the jaw drops or the lids close (the lids' corners stay put in a blink).
 */
export const STABLE = [10, 151, 9, 8, 168, 6, 197, 195, 5, 4, 33, 133, 362, 263, 127, 356, 109, 338, 67, 297, 21, 251];
export const CHIN = 152;
export const FOREHEAD = 10;
/** The base of the nose: the mouth-and-jaw region starts below it. */
export const NOSE_BASE = 2;
const UPPER_LIP_INNER = 13;
const LOWER_LIP_INNER = 14;

export const points = (mesh: Mesh, indices: number[]): Point[] => indices.map((i) => mesh[i]!);

/** Forehead to chin. */
export const faceHeight = (mesh: Mesh): number => distance(mesh[FOREHEAD]!, mesh[CHIN]!);

/** The lips' inner gap at their middle, in face heights. */
export const mouthOpening = (mesh: Mesh): number => distance(mesh[UPPER_LIP_INNER]!, mesh[LOWER_LIP_INNER]!) / faceHeight(mesh);

/** The eye aspect ratio (Soukupová and Čech 2016), the two eyes' mean: about 0.25–0.3 open, under 0.1 closed. */
export function eyeAspect(mesh: Mesh): number {
  const ratio = (p: number[]) =>
    (distance(mesh[p[1]!]!, mesh[p[5]!]!) + distance(mesh[p[2]!]!, mesh[p[4]!]!)) / (2 * distance(mesh[p[0]!]!, mesh[p[3]!]!));
  return (ratio(EYE_ASPECT[0]!) + ratio(EYE_ASPECT[1]!)) / 2;
}

/**
 * Where a blink may change the face: each eye's lid loop widened by a fifth and reaching up a third of the
 * eye's width (the upper lid's skin up to its crease) and down a sixth; the brows, a third of an eye's width
 * higher still, stay outside it.
 */
export function eyelidRegions(mesh: Mesh): Point[][] {
  return EYES.map((loop) => {
    const eye = points(mesh, loop);
    const width = distance(mesh[loop[0]!]!, mesh[loop[8]!]!);
    const cx = eye.reduce((s, p) => s + p[0], 0) / eye.length,
      cy = eye.reduce((s, p) => s + p[1], 0) / eye.length;
    return eye.map(([x, y]): Point => [cx + (x - cx) * 1.2, y < cy ? y - width / 3 : y + width / 6]);
  });
}
