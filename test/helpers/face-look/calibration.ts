// The frames the face-look thresholds are calibrated on (issue 51, point 7), made on purpose from a portrait
// and its landmarks, each named and labelled good or bad for the measure it is made for, and the figures the
// instrument reads from them. Used by test/realtime/face-look-calibration.test.ts (which asserts each
// threshold separates them) and scripts/face-look.ts --calibrate (which prints them and writes the frames).
import { type Rgb } from './image.js';
import { blackEllipse, blink, moveHead, noisy, openJaw, pastedBrows } from './made-frames.js';
import { analyseLook, type LookedFrame, type LookFigures } from './analyse.js';
import { faceHeight, type Mesh } from './regions.js';
import type { Sight } from './see.js';

export interface MadeReply {
  name: string;
  /** What it is made to be, per measure: true good, false bad, absent not its concern. */
  good: Partial<Record<'outside' | 'inside' | 'chin' | 'blink' | 'same', boolean>>;
  frames: Rgb[];
}

/**
 * Replies of 14 frames each from a rest frame: rest and small head moves with sensor noise throughout; the
 * mouth opening and closing (4 frames each side of a widest opening of a tenth of the face's height); two
 * blinks. Each reply differs from the good one in one way.
 */
export function madeReplies(rest: Rgb, mesh: Mesh): MadeReply[] {
  const h = faceHeight(mesh);
  const openings = [0, 0, 0.03, 0.06, 0.09, 0.11, 0.09, 0.06, 0.03, 0, 0, 0, 0.05, 0.1].map((o) => Math.round(o * h));
  const blinks = new Set([1, 10]);
  // The head moves a little from frame to frame (≤ 2°, ≤ 3 % scale, a few pixels), as a living head does.
  const move = (i: number) => {
    const angle = (Math.sin(i * 0.7) * 2 * Math.PI) / 180,
      scale = 1 + 0.03 * Math.sin(i * 0.45);
    const c = [rest.width / 2, rest.height / 2];
    const a = Math.cos(angle) / scale,
      b = Math.sin(angle) / scale;
    return { a, b, tx: c[0]! - a * c[0]! + b * c[1]! + 3 * Math.sin(i), ty: c[1]! - b * c[0]! - a * c[1]! + 2 * Math.cos(i * 1.3) };
  };
  const make = (edit: (i: number) => Rgb, still = false): Rgb[] =>
    openings.map((_, i) => {
      const edited = edit(i);
      const moved = still || i === 0 ? edited : moveHead(edited, mesh, move(i)).image;
      return noisy(moved, 3, i + 1);
    });
  const good = (i: number) => {
    let frame = openings[i]! ? openJaw(rest, mesh, openings[i]!) : rest;
    if (blinks.has(i)) frame = blink(frame, mesh);
    return frame;
  };
  return [
    {
      name: 'good: jaw, teeth, blinks, head moving',
      good: { outside: true, inside: true, chin: true, blink: true, same: true },
      frames: make(good),
    },
    { name: 'good, the head still', good: { outside: true, inside: true, chin: true, blink: true, same: true }, frames: make(good, true) },
    {
      name: 'bad: rectangles pasted over the brows at each blink',
      good: { outside: false, blink: false },
      frames: make((i) => (blinks.has(i) ? pastedBrows(openings[i] ? openJaw(rest, mesh, openings[i]!) : rest, mesh) : good(i))),
    },
    {
      name: 'bad: a flat black ellipse for a mouth, the chin frozen',
      good: { inside: false, chin: false },
      frames: make((i) => (openings[i] ? blackEllipse(blinks.has(i) ? blink(rest, mesh) : rest, mesh, openings[i]!) : good(i))),
    },
    {
      name: 'bad: the jaw opens onto a flat void',
      good: { inside: false, chin: true },
      frames: make((i) => (openings[i] ? openJaw(rest, mesh, openings[i]!, { inside: 'void' }) : good(i))),
    },
    {
      name: 'bad: the jaw opens onto a dark hole under a thin tooth strip, the lips pale, no tongue',
      good: { inside: false, chin: true },
      frames: make((i) => (openings[i] ? openJaw(rest, mesh, openings[i]!, { inside: 'hole' }) : good(i))),
    },
    {
      name: 'bad: the lips part over a frozen chin',
      good: { chin: false, inside: true },
      frames: make((i) => (openings[i] ? openJaw(rest, mesh, openings[i]!, { carryChin: false }) : good(i))),
    },
    {
      name: 'bad: the jaw carries the chin a third of the way',
      good: { chin: false },
      frames: make((i) => (openings[i] ? openJaw(rest, mesh, openings[i]!, { carryChin: 1 / 3 }) : good(i))),
    },
    {
      name: 'bad: the eyes never close',
      good: { blink: false, outside: true },
      frames: make((i) => (openings[i] ? openJaw(rest, mesh, openings[i]!) : rest)),
    },
  ];
}

/**
 * Faces that are not the portrait's person, for (e): two people in @vladmandic/human's own sample picture (its
 * assets/samples.jpg, MIT, shipped in the npm package; faces about 40 px there, enlarged) and Ada, the drawn
 * face (docs/face-ada.png's rest); beside them, the portrait itself shrunk to the same 40 px face and enlarged
 * back, so that blur alone is told from another person.
 */
export const OTHER_FACES: Array<{ name: string; file: string; filter: string; samePerson: boolean }> = [
  {
    name: 'another person (a woman, samples.jpg)',
    file: 'node_modules/@vladmandic/human/assets/samples.jpg',
    filter: 'crop=150:158:166:0,scale=600:632:flags=bicubic',
    samePerson: false,
  },
  {
    name: 'another person (a man, samples.jpg)',
    file: 'node_modules/@vladmandic/human/assets/samples.jpg',
    filter: 'crop=210:158:326:0,scale=630:474:flags=bicubic',
    samePerson: false,
  },
  { name: 'Ada, the drawn face', file: 'docs/face-ada.png', filter: 'crop=480:270:0:0', samePerson: false },
  {
    name: 'the portrait shrunk to a 40 px face and enlarged back',
    file: 'test/fixtures/portrait-collins.jpg',
    filter: 'scale=160:160:flags=area,scale=512:512:flags=bicubic',
    samePerson: true,
  },
];

/** A made reply's figures: each frame seen (`see`), the first as rest. */
export async function lookAtMade(reply: MadeReply, see: (frame: Rgb) => Promise<Sight>): Promise<LookFigures> {
  const frames: LookedFrame[] = [];
  for (const [i, image] of reply.frames.entries()) {
    const sight = await see(image);
    frames.push({ at: i * 40, image, mesh: sight.mesh, embedding: sight.embedding, silent: i === 0 });
  }
  return analyseLook(frames, 0);
}
