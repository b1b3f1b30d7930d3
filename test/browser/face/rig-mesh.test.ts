// A version-2 trained face (face-drawing/mesh.ts) drawn in the browser from a rig trained on the shared
// portrait (test/fixtures/rig-v2, made by `npx tsx scripts/face-frames.ts`): the open mouth carries the chin
// down and shows an inside that is not a flat void, a blink closes the eyelids and changes nothing outside the
// eyes, and WebGL and canvas 2D draw the same picture.
import { expect } from '@open-wc/testing';
import { BLEND_MS, createRigFace } from '../../../src/palkit/client/media/face/rig-face.js';
import type { FaceTimeline } from '../../../src/palkit/client/media/face/face-track.js';
import { BLINK } from '../../../src/face-drawing/mesh.js';
import type { Viseme } from '../../../src/protocol/visemes.js';
import { servedFiles } from '../helpers/rig-stand-ins.js';
import { waitFor } from '../helpers/wait-for.js';

const SIZE = 512;
const FIXTURE = new URL('../../fixtures/rig-v2/', import.meta.url);
/** Where the fixture's features are (its rig.json: landmarks 33/133/159/145, 263/362/386/374, 61/291/13/14, 152). */
const EYES: Array<[number, number, number, number]> = [
  [204, 237, 46, 26],
  [266, 240, 46, 26],
];
const MOUTH = { x: 255, y: 313, width: 64 };
const CHIN_Y = 357;

async function rigFiles(): Promise<typeof fetch> {
  const get = async (name: string) => (await fetch(new URL(name, FIXTURE))).blob();
  return servedFiles(
    new Map<string, Blob | string>([
      ['/faces/v2/rig.json', await (await fetch(new URL('rig.json', FIXTURE))).text()],
      ['/faces/v2/idle.jpg', await get('idle.jpg')],
      ['/faces/v2/mouths.webp', await get('mouths.webp')],
    ]),
  ).fetch;
}

function face(options: { webgl: 'never' | 'any'; random?: number; reducedMotion?: boolean }) {
  const state = { now: 0, viseme: 'rest' as Viseme };
  const timeline: FaceTimeline = { visemeNow: () => state.viseme, speaking: () => state.viseme !== 'rest' };
  const made = rigFiles().then((fetcher) =>
    createRigFace('/faces/v2/rig.json', timeline, {
      clock: () => state.now,
      random: () => options.random ?? 0.99,
      reducedMotion: options.reducedMotion ?? true,
      webgl: options.webgl,
      fetch: fetcher,
    }),
  );
  return { state, made };
}

const luma = (d: Uint8ClampedArray, x: number, y: number) => {
  const o = (y * SIZE + x) * 4;
  return 0.299 * d[o]! + 0.587 * d[o + 1]! + 0.114 * d[o + 2]!;
};

/** Mean absolute luma difference over a box (x, y, w, h). */
function difference(a: Uint8ClampedArray, b: Uint8ClampedArray, [x0, y0, w, h]: [number, number, number, number]): number {
  let sum = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) sum += Math.abs(luma(a, x, y) - luma(b, x, y));
  return sum / (w * h);
}

const readers = new WeakMap<MediaStreamTrack, () => Uint8ClampedArray>();

/** The track's current frame as a <video> shows it, read back (one video per track, kept playing). */
async function readerOf(track: MediaStreamTrack): Promise<() => Uint8ClampedArray> {
  let read = readers.get(track);
  if (read) return read;
  const video = Object.assign(document.createElement('video'), { muted: true, srcObject: new MediaStream([track]) });
  await video.play();
  await waitFor(() => video.videoWidth > 0, { what: 'a frame' });
  const context = Object.assign(document.createElement('canvas'), { width: SIZE, height: SIZE }).getContext('2d', {
    willReadFrequently: true,
  })!;
  read = () => {
    context.drawImage(video, 0, 0, SIZE, SIZE);
    return context.getImageData(0, 0, SIZE, SIZE).data;
  };
  readers.set(track, read);
  return read;
}

/** Reads frames until two in a row agree (the newest drawing has reached the reading video). */
async function steady(track: MediaStreamTrack): Promise<Uint8ClampedArray> {
  const read = await readerOf(track);
  let last = read();
  let alike = 0;
  // Four reads alike in a row (a quarter of a second: a drawing made before the read has reached the video by then).
  await waitFor(
    async () => {
      const next = read();
      alike = difference(last, next, [0, 0, SIZE, SIZE]) < 0.05 ? alike + 1 : 0;
      last = next;
      return alike >= 4;
    },
    { timeout: 4000, interval: 60 },
  ).catch(() => undefined);
  return last;
}

/** The row below the lips where the skin meets the dark under the chin, at the mouth's middle. */
function chinRow(d: Uint8ClampedArray): number {
  let best = CHIN_Y;
  let drop = 0;
  for (let y = MOUTH.y + 25; y < CHIN_Y + 40; y++) {
    const step = luma(d, MOUTH.x, y - 2) - luma(d, MOUTH.x, y + 2);
    if (step > drop) [best, drop] = [y, step];
  }
  return best;
}

describe('a version-2 trained face (a mesh over the portrait)', () => {
  for (const webgl of ['never', 'any'] as const) {
    it(`opens the jaw with the chin, an inside that is not a void, and rests again (${webgl === 'never' ? 'canvas 2D' : 'WebGL'})`, async () => {
      const { state, made } = face({ webgl });
      const f = await made;
      // 'any' draws with WebGL wherever the page has it at all (as rig-face.test.ts asks of version-1 rigs).
      const hasGl = document.createElement('canvas').getContext('webgl') !== null;
      expect(f.renderer).to.equal(webgl === 'never' || !hasGl ? '2d' : 'webgl');
      const rest = await steady(f.track);
      state.viseme = 'A';
      state.now += BLEND_MS * 2;
      const open = await steady(f.track);
      const chinTravel = chinRow(open) - chinRow(rest);
      expect(chinTravel, `the chin moves down (rest ${chinRow(rest)}, open ${chinRow(open)})`).to.be.within(8, 30);
      // The opening: from the upper lip down, a spread of lumas (teeth, throat, tongue), not one flat dark.
      const inside: number[] = [];
      for (let y = MOUTH.y - 2; y < MOUTH.y + 16; y++) for (let x = MOUTH.x - 14; x < MOUTH.x + 14; x++) inside.push(luma(open, x, y));
      inside.sort((a, b) => a - b);
      const spread = inside[Math.floor(inside.length * 0.9)]! - inside[Math.floor(inside.length * 0.1)]!;
      expect(spread, 'luma spread inside the open mouth').to.be.greaterThan(40);
      expect(inside[Math.floor(inside.length * 0.9)]!, 'teeth bright in the opening').to.be.greaterThan(150);
      expect(difference(rest, open, [0, 0, 120, 120]), 'the background holds still').to.be.lessThan(1);
      expect(difference(rest, open, [190, 213, 130, 60]), 'the eyes hold still').to.be.lessThan(1.5);
      state.viseme = 'rest';
      state.now += BLEND_MS * 2;
      expect(difference(rest, await steady(f.track), [MOUTH.x - 50, MOUTH.y - 30, 100, 90]), 'back at rest').to.be.lessThan(1.5);
      f.stop();
    });
  }

  it('closes the eyelids in a blink and changes nothing outside the eyes', async () => {
    // One face blinks first at 1.2 s (random 0), the other not before 3 s: at the same moment, only the eyes differ.
    const [blinking, open] = [
      face({ webgl: 'never', random: 0, reducedMotion: false }),
      face({ webgl: 'never', random: 0.99, reducedMotion: false }),
    ];
    const [a, b] = await Promise.all([blinking.made, open.made]);
    blinking.state.now = open.state.now = 1200 + BLINK.closing + BLINK.closed / 2;
    const [closed, eyesOpen] = [await steady(a.track), await steady(b.track)];
    for (const eye of EYES) expect(difference(closed, eyesOpen, eye), 'the eye is covered by its lid').to.be.greaterThan(6);
    // Outside the eyes' boxes: above them (forehead), between and below them (nose, cheeks, mouth), the frame's corner.
    for (const box of [
      [190, 183, 130, 40],
      [250, 237, 14, 26],
      [190, 271, 130, 90],
      [0, 0, 120, 120],
    ] as Array<[number, number, number, number]>) {
      expect(difference(closed, eyesOpen, box), `nothing changes at ${box.join(',')}`).to.be.lessThan(1.5);
    }
    a.stop();
    b.stop();
  });

  it('draws the same picture with WebGL and canvas 2D', async () => {
    const [gl, flat] = [face({ webgl: 'any' }), face({ webgl: 'never' })];
    const [g, c] = await Promise.all([gl.made, flat.made]);
    gl.state.viseme = flat.state.viseme = 'O';
    gl.state.now = flat.state.now = BLEND_MS * 2;
    const [a, b] = [await steady(g.track), await steady(c.track)];
    expect(difference(a, b, [MOUTH.x - 60, MOUTH.y - 40, 120, 110]), 'mouth and chin alike').to.be.lessThan(4);
    g.stop();
    c.stop();
  });
});
