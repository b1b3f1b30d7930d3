// A trained face blending a closed mouth into an open one shows one chin at every moment: the jaw lines of
// the two mouths (and of the idle frame under them) are moved to the blended height before the images are
// mixed. A plain cross-fade of the two showed both chins at once, each at half contrast (a doubled jaw line).
// And inside the opening the open mouth's own teeth and dark show mid-blend (face-drawing/mouth-interior.ts):
// a cross-fade showed them half over the closed lips (grey teeth, a washed-out opening). The rig is drawn
// like a made one (test/helpers/drawn-rig.ts): a face whose chin the open mouth's patch moves down.
import { expect } from '@open-wc/testing';
import { BLEND_MS, createRigFace } from '../../../src/palkit/client/media/face/rig-face.js';
import type { FaceTimeline } from '../../../src/palkit/client/media/face/face-track.js';
import { MADE_JAW_DROP } from '../../../src/face-drawing/jaw.js';
import type { Viseme } from '../../../src/protocol/visemes.js';
import {
  CHIN_OPEN,
  CHIN_REST,
  HALF,
  MOUTH,
  MOUTH_SHEET,
  SIZE,
  chinEdges,
  drawnRig,
  interiorColours,
  luma,
  paintIdle,
  paintMouths,
} from '../../helpers/drawn-rig.js';
import { canvasOf, frameOf as frameAt, png, servedFiles } from '../helpers/rig-stand-ins.js';
import { waitFor } from '../helpers/wait-for.js';

/** The drawn rig's files, served by a fetch of their own. */
async function drawnRigFiles(): Promise<typeof fetch> {
  return servedFiles(
    new Map<string, Blob | string>([
      ['/faces/j/rig.json', JSON.stringify(drawnRig())],
      ['/faces/j/idle.png', await png(canvasOf(SIZE, SIZE, paintIdle))],
      ['/faces/j/mouths.png', await png(canvasOf(MOUTH_SHEET.width, MOUTH_SHEET.height, paintMouths))],
    ]),
  ).fetch;
}

const frameOf = async (track: MediaStreamTrack) => (await frameAt(track, SIZE)).data;

/** Whether the mouth and chin differ from the resting frame's (by more than the video's coding noise). */
function changed(rest: Uint8ClampedArray, frame: Uint8ClampedArray): boolean {
  let sum = 0;
  let n = 0;
  for (let y = MOUTH.y - HALF; y < MOUTH.y + 3 * HALF; y++)
    for (let x = MOUTH.x - HALF; x < MOUTH.x + HALF; x++, n++) sum += Math.abs(luma(rest, x, y) - luma(frame, x, y));
  return sum / n > 2;
}

/** Darkness of the opening's middle below the teeth (0 closed, 1 fully open): how far open the mouth shows (printed with the figures). */
function openness(frame: Uint8ClampedArray): number {
  const y = MOUTH.y + (MADE_JAW_DROP.A * HALF) / 2;
  return Math.max(0, Math.min(1, (luma(frame, MOUTH.x, MOUTH.y - 12) - luma(frame, MOUTH.x, y)) / 150));
}

async function frameAtBlend(webgl: 'any' | 'never', blend: number): Promise<{ renderer: string; frame: Uint8ClampedArray }> {
  const state = { now: 0, viseme: 'rest' as Viseme };
  const timeline: FaceTimeline = { visemeNow: () => state.viseme, speaking: () => state.viseme !== 'rest' };
  const face = await createRigFace('/faces/j/rig.json', timeline, {
    clock: () => state.now,
    random: () => 0.99,
    reducedMotion: true,
    webgl,
    fetch: await drawnRigFiles(),
  });
  try {
    const rest = await frameOf(face.track);
    if (blend > 0) {
      state.viseme = 'A';
      state.now += BLEND_MS * blend;
    }
    // The clock stands still from here: every frame drawn shows that moment of the blend, so the first frame
    // the video shows that differs from the resting one is that moment's.
    let frame = await frameOf(face.track);
    if (blend > 0)
      await waitFor(async () => changed(rest, (frame = await frameOf(face.track))), { timeout: 8_000, interval: 50 }).catch(
        () => undefined,
      );
    return { renderer: face.renderer, frame };
  } finally {
    face.stop();
  }
}

const renderers = [
  ['never', 'canvas 2D'],
  ['any', 'WebGL'],
] as const;
const noWebgl = () => !document.createElement('canvas').getContext('webgl');

describe('a trained face blending one mouth into the next', () => {
  for (const [webgl, name] of renderers) {
    it(`shows one chin at every moment of the blend, never two (${name})`, async function () {
      this.timeout(15_000);
      if (webgl === 'any' && noWebgl()) this.skip();
      const figures: string[] = [];
      const chins: number[] = [];
      for (const blend of [0, 0.25, 0.5, 0.75, 1]) {
        const { renderer, frame } = await frameAtBlend(webgl, blend);
        const edges = chinEdges(frame);
        figures.push(`${renderer} blend ${blend}: open ${openness(frame).toFixed(2)}, chin edges at rows ${edges.join(', ') || 'none'}`);
        expect(edges, `${renderer} at blend ${blend}: one chin edge (rows ${edges.join(', ')})`).to.have.length(1);
        chins.push(edges[0]!);
      }
      console.log(figures.join('\n'));
      // The chin moves down with the blend, from the resting one to the open one.
      expect(chins[0]!, 'closed: the resting chin').to.be.closeTo(MOUTH.y + CHIN_REST * HALF, 3);
      expect(chins[4]!, 'open: the dropped chin').to.be.closeTo(MOUTH.y + CHIN_OPEN * HALF, 3);
      for (let k = 1; k < chins.length; k++) expect(chins[k]!, 'moving down').to.be.at.least(chins[k - 1]!);
    });
  }

  for (const [webgl, name] of renderers) {
    it(`shows the open mouth's own teeth and dark mid-blend, not a cross-fade of them with the closed lips (${name})`, async function () {
      this.timeout(15_000);
      if (webgl === 'any' && noWebgl()) this.skip();
      const figures: Array<{ blend: number; renderer: string; own: number; teeth: number }> = [];
      for (const blend of [0, 0.5, 1]) {
        const { renderer, frame } = await frameAtBlend(webgl, blend);
        figures.push({ blend, renderer, ...interiorColours(frame, 24) });
      }
      console.log(
        figures
          .map(
            (f) =>
              `${f.renderer} blend ${f.blend}: ${(100 * f.own).toFixed(0)} % of the opening in the mouths' own colours, ${f.teeth} teeth pixels`,
          )
          .join('\n'),
      );
      const [closed, middle, open] = figures as [(typeof figures)[0], (typeof figures)[0], (typeof figures)[0]];
      expect(closed.own, 'closed: lips and skin').to.be.at.least(0.6);
      expect(open.own, 'open: its teeth and its dark').to.be.at.least(0.6);
      expect(open.teeth, 'open: its teeth').to.be.at.least(20);
      // The video's chroma subsampling blurs colour edges: the share mid-blend is compared with the open mouth's.
      expect(middle.own, "mid-blend: the mouths' own colours, not their mix").to.be.at.least(0.8 * open.own);
      expect(middle.teeth, 'mid-blend: the teeth as teeth, not grey').to.be.at.least(20);
    });
  }
});
