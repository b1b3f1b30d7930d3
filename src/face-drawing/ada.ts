// Ada, palkit's built-in face: a drawn portrait whose mouth takes one shape per viseme and whose eyes
// blink. Pure geometry (SVG path data), so that the service draws its still image and the elements draw
// it live (Path2D takes the same path strings) from one definition.
import type { Viseme } from '../protocol/visemes.js';

export const ADA = 'palkit:ada';
/** The faces the elements can draw themselves. */
export const BUILT_IN_FACES = [ADA] as const;

export const FACE_WIDTH = 960;
export const FACE_HEIGHT = 540;

export interface FaceLayer {
  path: string;
  fill: string;
  /** Drawn only with the eyes open (iris, pupil, highlight). */
  eyes?: boolean;
  opacity?: number;
}

const SKIN = '#f2c7a5';
const SKIN_SHADE = '#e3ad88';
const HAIR = '#3a2a24';
const HAIR_LIGHT = '#4d3830';

/** Everything but the mouth and eyelids, back to front. */
export const adaLayers: readonly FaceLayer[] = [
  // Hair behind the head and shoulders.
  {
    path: 'M330 250 C318 120 400 48 486 50 C590 52 650 128 640 250 C636 330 650 400 676 452 L292 452 C316 398 334 330 330 250 Z',
    fill: HAIR,
  },
  // Shoulders and top.
  { path: 'M236 540 C246 456 330 414 418 402 L542 402 C632 414 716 456 726 540 Z', fill: '#4f5fd8' },
  { path: 'M418 402 C440 440 520 440 542 402 L530 392 C510 420 450 420 430 392 Z', fill: '#3c4bc0' },
  // Neck.
  { path: 'M436 330 L436 404 C456 424 504 424 524 404 L524 330 Z', fill: SKIN_SHADE },
  // Ears.
  { path: 'M370 238 C350 232 346 270 356 288 C364 302 376 300 380 290 Z', fill: SKIN_SHADE },
  { path: 'M590 238 C610 232 614 270 604 288 C596 302 584 300 580 290 Z', fill: SKIN_SHADE },
  // Face.
  { path: 'M480 110 C548 110 590 160 590 236 C590 312 544 366 480 370 C416 366 370 312 370 236 C370 160 412 110 480 110 Z', fill: SKIN },
  // Cheeks.
  { path: 'M412 292 a22 14 0 1 0 44 0 a22 14 0 1 0 -44 0 Z', fill: '#f08f8f', opacity: 0.28 },
  { path: 'M504 292 a22 14 0 1 0 44 0 a22 14 0 1 0 -44 0 Z', fill: '#f08f8f', opacity: 0.28 },
  // Fringe, swept to one side.
  { path: 'M372 222 C366 140 420 92 492 94 C556 96 604 140 596 214 C572 172 536 148 492 146 C470 176 430 200 372 222 Z', fill: HAIR },
  { path: 'M470 118 C500 112 548 122 572 150 C540 134 506 130 476 134 Z', fill: HAIR_LIGHT },
  // Brows.
  { path: 'M412 212 C428 200 452 200 466 208 L464 214 C450 208 430 208 414 218 Z', fill: HAIR },
  { path: 'M548 212 C532 200 508 200 494 208 L496 214 C510 208 530 208 546 218 Z', fill: HAIR },
  // Eye whites, irises, pupils, highlights.
  { path: 'M416 244 C424 230 456 230 464 244 C456 256 424 256 416 244 Z', fill: '#ffffff', eyes: true },
  { path: 'M496 244 C504 230 536 230 544 244 C536 256 504 256 496 244 Z', fill: '#ffffff', eyes: true },
  { path: 'M430 244 a10 10 0 1 0 20 0 a10 10 0 1 0 -20 0 Z', fill: '#5b3b2a', eyes: true },
  { path: 'M510 244 a10 10 0 1 0 20 0 a10 10 0 1 0 -20 0 Z', fill: '#5b3b2a', eyes: true },
  { path: 'M435 244 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z', fill: '#1d1310', eyes: true },
  { path: 'M515 244 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z', fill: '#1d1310', eyes: true },
  { path: 'M442 239 a3 3 0 1 0 6 0 a3 3 0 1 0 -6 0 Z', fill: '#ffffff', eyes: true },
  { path: 'M522 239 a3 3 0 1 0 6 0 a3 3 0 1 0 -6 0 Z', fill: '#ffffff', eyes: true },
  // Nose.
  {
    path: 'M481 262 C479 276 472 288 474 294 C479 299 488 299 493 295 C487 296 480 295 479 291 C479 283 484 272 481 262 Z',
    fill: SKIN_SHADE,
  },
];

/** Closed eyelids (a blink), with their lashes. */
export const adaEyelids: readonly FaceLayer[] = [
  { path: 'M414 244 C424 228 456 228 466 244 C456 250 424 250 414 244 Z', fill: SKIN_SHADE },
  { path: 'M494 244 C504 228 536 228 546 244 C536 250 504 250 494 244 Z', fill: SKIN_SHADE },
  { path: 'M414 244 C424 252 456 252 466 244 L466 247 C456 256 424 256 414 247 Z', fill: HAIR },
  { path: 'M494 244 C504 252 536 252 546 244 L546 247 C536 256 504 256 494 247 Z', fill: HAIR },
];

/** Lash lines over open eyes. */
export const adaLashes: readonly FaceLayer[] = [
  { path: 'M412 243 C422 226 458 226 468 243 L466 245 C456 232 424 232 414 245 Z', fill: HAIR },
  { path: 'M492 243 C502 226 538 226 548 243 L546 245 C536 232 504 232 494 245 Z', fill: HAIR },
];

/** A mouth: how wide, how open, how round, and what shows inside. */
export interface MouthShape {
  width: number;
  open: number;
  /** 0 spread … 1 rounded (pouted lips). */
  round: number;
  teeth: number;
  tongue: number;
  /** Lower lip tucked under the upper teeth (f, v). */
  bite: number;
}

export const MOUTHS: Record<Viseme, MouthShape> = {
  rest: { width: 46, open: 0, round: 0.1, teeth: 0, tongue: 0, bite: 0 },
  A: { width: 50, open: 30, round: 0.2, teeth: 0.6, tongue: 0.4, bite: 0 },
  E: { width: 56, open: 16, round: 0, teeth: 1, tongue: 0, bite: 0 },
  I: { width: 58, open: 9, round: 0, teeth: 1, tongue: 0, bite: 0 },
  O: { width: 32, open: 26, round: 1, teeth: 0, tongue: 0.2, bite: 0 },
  U: { width: 24, open: 13, round: 1, teeth: 0, tongue: 0, bite: 0 },
  M: { width: 44, open: 0, round: 0.2, teeth: 0, tongue: 0, bite: 0 },
  F: { width: 46, open: 7, round: 0, teeth: 1, tongue: 0, bite: 1 },
  L: { width: 46, open: 16, round: 0.2, teeth: 0.5, tongue: 1, bite: 0 },
  S: { width: 50, open: 6, round: 0, teeth: 1, tongue: 0, bite: 0 },
};

const MOUTH_X = 480;
const MOUTH_Y = 322;

export function mixMouths(a: MouthShape, b: MouthShape, t: number): MouthShape {
  const mix = (x: number, y: number) => x + (y - x) * t;
  return {
    width: mix(a.width, b.width),
    open: mix(a.open, b.open),
    round: mix(a.round, b.round),
    teeth: mix(a.teeth, b.teeth),
    tongue: mix(a.tongue, b.tongue),
    bite: mix(a.bite, b.bite),
  };
}

/** The mouth's layers for a shape: lips, and when open the dark inside with teeth and tongue. */
export function mouthLayers(m: MouthShape): FaceLayer[] {
  const w = m.width / 2;
  const x0 = MOUTH_X - w;
  const x1 = MOUTH_X + w;
  const y = MOUTH_Y;
  const lip = 5 + m.round * 4; // rounded lips look fuller
  const smile = 5 * (1 - m.round) * (m.open < 4 ? 1 : 0.4);
  const f = (n: number) => n.toFixed(1);
  if (m.open < 1.5) {
    // Closed: a smiling line between full lips.
    return [
      {
        path: `M${f(x0 - 2)} ${f(y - smile)} C${f(MOUTH_X - w / 2)} ${f(y - lip)} ${f(MOUTH_X + w / 2)} ${f(y - lip)} ${f(x1 + 2)} ${f(y - smile)} C${f(MOUTH_X + w / 2)} ${f(y + lip + 4)} ${f(MOUTH_X - w / 2)} ${f(y + lip + 4)} ${f(x0 - 2)} ${f(y - smile)} Z`,
        fill: '#cf6f6f',
      },
      {
        path: `M${f(x0)} ${f(y - smile)} C${f(MOUTH_X - w / 3)} ${f(y + 3)} ${f(MOUTH_X + w / 3)} ${f(y + 3)} ${f(x1)} ${f(y - smile)} L${f(x1)} ${f(y - smile + 1.6)} C${f(MOUTH_X + w / 3)} ${f(y + 4.6)} ${f(MOUTH_X - w / 3)} ${f(y + 4.6)} ${f(x0)} ${f(y - smile + 1.6)} Z`,
        fill: '#8c3b45',
      },
    ];
  }
  const top = y - m.open * 0.35;
  const bottom = y + m.open * 0.75;
  const inner = `M${f(x0)} ${f(y - smile)} C${f(MOUTH_X - w * 0.6)} ${f(top)} ${f(MOUTH_X + w * 0.6)} ${f(top)} ${f(x1)} ${f(y - smile)} C${f(MOUTH_X + w * 0.7)} ${f(bottom)} ${f(MOUTH_X - w * 0.7)} ${f(bottom)} ${f(x0)} ${f(y - smile)} Z`;
  const layers: FaceLayer[] = [
    // Lips around the opening.
    {
      path: `M${f(x0 - lip)} ${f(y - smile)} C${f(MOUTH_X - w * 0.6)} ${f(top - lip * 1.6)} ${f(MOUTH_X + w * 0.6)} ${f(top - lip * 1.6)} ${f(x1 + lip)} ${f(y - smile)} C${f(MOUTH_X + w * 0.8)} ${f(bottom + lip * 1.8)} ${f(MOUTH_X - w * 0.8)} ${f(bottom + lip * 1.8)} ${f(x0 - lip)} ${f(y - smile)} Z`,
      fill: '#cf6f6f',
    },
    { path: inner, fill: '#5a1f2b' },
  ];
  if (m.tongue > 0.05)
    layers.push({
      path: `M${f(MOUTH_X - w * 0.55)} ${f(bottom - 1)} C${f(MOUTH_X - w * 0.4)} ${f(bottom - m.open * 0.45)} ${f(MOUTH_X + w * 0.4)} ${f(bottom - m.open * 0.45)} ${f(MOUTH_X + w * 0.55)} ${f(bottom - 1)} Z`,
      fill: '#d9737c',
      opacity: m.tongue,
    });
  if (m.teeth > 0.05)
    layers.push({
      path: `M${f(MOUTH_X - w * 0.7)} ${f(y - smile * 0.6 - m.open * 0.2)} C${f(MOUTH_X - w * 0.4)} ${f(top + 1)} ${f(MOUTH_X + w * 0.4)} ${f(top + 1)} ${f(MOUTH_X + w * 0.7)} ${f(y - smile * 0.6 - m.open * 0.2)} L${f(MOUTH_X + w * 0.62)} ${f(y - smile * 0.6 + Math.min(5, m.open * 0.3))} L${f(MOUTH_X - w * 0.62)} ${f(y - smile * 0.6 + Math.min(5, m.open * 0.3))} Z`,
      fill: '#fbfaf7',
      opacity: m.teeth,
    });
  if (m.bite > 0.05)
    layers.push({
      path: `M${f(x0 + 4)} ${f(y + 3)} C${f(MOUTH_X - w / 3)} ${f(y - 1)} ${f(MOUTH_X + w / 3)} ${f(y - 1)} ${f(x1 - 4)} ${f(y + 3)} C${f(MOUTH_X + w / 3)} ${f(y + 9)} ${f(MOUTH_X - w / 3)} ${f(y + 9)} ${f(x0 + 4)} ${f(y + 3)} Z`,
      fill: '#cf6f6f',
      opacity: m.bite,
    });
  return layers;
}

/** The face as a standalone SVG document (the still image of the face: launcher, preview, landing page). */
export function adaSvg(options: { viseme?: Viseme; eyesClosed?: boolean } = {}): string {
  const layers = [
    ...adaLayers.filter((l) => !(l.eyes && options.eyesClosed)),
    ...(options.eyesClosed ? adaEyelids : adaLashes),
    ...mouthLayers(MOUTHS[options.viseme ?? 'rest']),
  ];
  const shapes = layers
    .map((l) => `<path d="${l.path}" fill="${l.fill}"${l.opacity !== undefined ? ` fill-opacity="${l.opacity.toFixed(2)}"` : ''}/>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${FACE_WIDTH} ${FACE_HEIGHT}" width="${FACE_WIDTH}" height="${FACE_HEIGHT}" role="img" aria-label="Ada">` +
    `<defs><radialGradient id="bg" cx="50%" cy="35%" r="75%"><stop offset="0" stop-color="${BACKGROUND[0]}"/><stop offset="1" stop-color="${BACKGROUND[1]}"/></radialGradient></defs>` +
    `<rect width="${FACE_WIDTH}" height="${FACE_HEIGHT}" fill="url(#bg)"/>${shapes}</svg>`
  );
}

/** The backdrop: a soft radial gradient, inner and outer colour. */
export const BACKGROUND = ['#dff3f1', '#9fc9d6'] as const;
