// A generated video's trained face blends a closed mouth into an open one as the elements draw it
// (face-drawing/jaw-mix.ts): one chin at every frame (a plain cross-fade showed the resting chin and the
// dropped one at once, each at half contrast), and the open mouth's teeth as they are mid-blend (a cross-fade
// showed them half over the other mouth's lips: grey). The rig is drawn like a made one (test/helpers/drawn-rig.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { drawSpeakingFrame, mouthAt, RIG_VIDEO_FPS, type RigVideoInput } from '../../../../src/server/resources/videos/render/rig-video.js';
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
  paintIdle,
  paintMouths,
} from '../../../helpers/drawn-rig.js';

async function drawnSheets(): Promise<Pick<RigVideoInput, 'rig' | 'idle' | 'mouths'>> {
  const idle = createCanvas(SIZE, SIZE);
  paintIdle(idle.getContext('2d'));
  const mouths = createCanvas(MOUTH_SHEET.width, MOUTH_SHEET.height);
  paintMouths(mouths.getContext('2d'));
  return { rig: drawnRig(), idle: new Uint8Array(await idle.encode('png')), mouths: new Uint8Array(await mouths.encode('png')) };
}

/** Frames 0–5 of a video whose open mouth is heard from 30 ms after frame 4, which is so drawn half way into it (a 60 ms blend). */
async function blendFrames(): Promise<Array<{ blend: number; frame: Uint8ClampedArray }>> {
  const sheets = await drawnSheets();
  const frameMs = 1000 / RIG_VIDEO_FPS;
  const cues = [
    { atMs: 0, viseme: 'rest' as const },
    { atMs: 4 * frameMs + 30, viseme: 'A' as const },
  ];
  const input: RigVideoInput = { ...sheets, cues, durationSeconds: 1 };
  const images = { idle: await loadImage(Buffer.from(sheets.idle)), mouths: await loadImage(Buffer.from(sheets.mouths)) };
  const canvas = createCanvas(SIZE, SIZE);
  const ctx = canvas.getContext('2d');
  const frames: Array<{ blend: number; frame: Uint8ClampedArray }> = [];
  for (let n = 0; n <= 5; n++) {
    const { viseme, blend } = mouthAt(cues, n * frameMs);
    drawSpeakingFrame(ctx, input, images, n);
    frames.push({ blend: viseme === 'A' ? 1 : blend, frame: ctx.getImageData(0, 0, SIZE, SIZE).data });
  }
  return frames;
}

describe('a generated video blending one mouth of a trained face into the next', () => {
  it('shows one chin at every frame of the blend, never two, moving down with it', async () => {
    const chins = (await blendFrames()).map(({ blend, frame }) => ({ blend, edges: chinEdges(frame) }));
    console.log(chins.map((c) => `blend ${c.blend.toFixed(2)}: chin edges at rows ${c.edges.join(', ')}`).join('\n'));
    assert.ok(
      chins.some((c) => c.blend > 0.3 && c.blend < 0.7),
      'a frame mid-blend',
    );
    for (const c of chins) assert.equal(c.edges.length, 1, `one chin edge at blend ${c.blend.toFixed(2)} (rows ${c.edges.join(', ')})`);
    assert.ok(Math.abs(chins[0]!.edges[0]! - (MOUTH.y + CHIN_REST * HALF)) <= 3, 'the resting chin first');
    assert.ok(Math.abs(chins.at(-1)!.edges[0]! - (MOUTH.y + CHIN_OPEN * HALF)) <= 3, 'the dropped chin last');
    for (let k = 1; k < chins.length; k++) assert.ok(chins[k]!.edges[0]! >= chins[k - 1]!.edges[0]!, 'moving down');
  });

  it("shows the open mouth's own teeth and dark interior mid-blend, not a cross-fade of them with the closed lips", async () => {
    const frames = await blendFrames();
    const figures = frames.map(({ blend, frame }) => ({ blend, ...interiorColours(frame) }));
    console.log(
      figures
        .map(
          (f) =>
            `blend ${f.blend.toFixed(2)}: ${(100 * f.own).toFixed(0)} % of the opening in the mouths' own colours, ${f.teeth} teeth pixels`,
        )
        .join('\n'),
    );
    const middle = figures.find((f) => f.blend > 0.3 && f.blend < 0.7)!;
    const open = figures.at(-1)!;
    assert.ok(figures[0]!.own >= 0.6, 'closed: lips and skin');
    assert.ok(open.own >= 0.6 && open.teeth >= 20, 'the open mouth: its teeth and its dark');
    assert.ok(
      middle.own >= 0.8 * open.own,
      `mid-blend the opening shows the mouths' own colours (${(100 * middle.own).toFixed(0)} %), not their mix`,
    );
    assert.ok(middle.teeth >= 20, `mid-blend the teeth show as teeth (${middle.teeth} pixels), not grey`);
  });
});
