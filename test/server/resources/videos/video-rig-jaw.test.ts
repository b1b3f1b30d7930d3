// A generated video's trained face blends a closed mouth into an open one with one chin at every frame, as
// the elements draw it (protocol/faces/jaw-mix.ts): a plain cross-fade showed the resting chin and the
// dropped one at once, each at half contrast. The rig is drawn here like a made one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { MADE_JAW_DROP, patchAlpha } from '../../../../src/protocol/faces/jaw.js';
import type { FaceRig } from '../../../../src/protocol/faces/rig.js';
import { VISEMES } from '../../../../src/protocol/visemes.js';
import { drawSpeakingFrame, mouthAt, RIG_VIDEO_FPS, type RigVideoInput } from '../../../../src/server/resources/videos/render/rig-video.js';

const SIZE = 160;
const MOUTH = { x: 80, y: 70, w: 40 };
const HALF = MOUTH.w / 2;
const CELL = { width: 112, height: 128 };
const SKIN = [216, 160, 128];
const BACKGROUND = [40, 48, 64];
const CHIN_REST = 1.3;
const CHIN_OPEN = CHIN_REST + MADE_JAW_DROP.A;

const rgb = (c: number[]) => `rgb(${c.join(',')})`;

/** A face (skin over a dark background) centred at (cx, my), its chin `chin` half-widths below the mouth, the lips apart by `open`. */
function paintFace(c: SKRSContext2D, cx: number, my: number, chin: number, open: number): void {
  c.fillStyle = rgb(BACKGROUND);
  c.fillRect(cx - SIZE, my - SIZE, 2 * SIZE, 2 * SIZE);
  const bottom = my + chin * HALF;
  const top = my - 60;
  c.fillStyle = rgb(SKIN);
  c.beginPath();
  c.ellipse(cx, (top + bottom) / 2, 50, (bottom - top) / 2, 0, 0, 2 * Math.PI);
  c.fill();
  c.fillStyle = '#7a2a2a';
  c.fillRect(cx - HALF, my - 4, MOUTH.w, 8 + open * HALF);
  c.fillStyle = '#140404';
  c.fillRect(cx - HALF + 3, my - 0.5, MOUTH.w - 6, 1 + open * HALF);
}

async function drawnRig(): Promise<Pick<RigVideoInput, 'rig' | 'idle' | 'mouths'>> {
  const idle = createCanvas(SIZE, SIZE);
  paintFace(idle.getContext('2d'), MOUTH.x, MOUTH.y, CHIN_REST, 0);
  const mouths = createCanvas(CELL.width * 2, CELL.height);
  const c = mouths.getContext('2d');
  paintFace(c, CELL.width / 2, CELL.height / 2, CHIN_REST, 0);
  c.save();
  c.beginPath();
  c.rect(CELL.width, 0, CELL.width, CELL.height);
  c.clip();
  paintFace(c, CELL.width * 1.5, CELL.height / 2, CHIN_OPEN, MADE_JAW_DROP.A);
  c.restore();
  const image = c.getImageData(0, 0, CELL.width * 2, CELL.height);
  for (let y = 0; y < CELL.height; y++)
    for (let x = 0; x < CELL.width * 2; x++) image.data[(y * CELL.width * 2 + x) * 4 + 3] = Math.round(255 * patchAlpha(((x % CELL.width) + 0.5 - CELL.width / 2) / HALF, (y + 0.5 - CELL.height / 2) / HALF));
  c.putImageData(image, 0, 0);
  const rig: FaceRig = {
    version: 1, width: SIZE, height: SIZE, fps: 10,
    idle: { url: 'idle.png', cellWidth: SIZE, cellHeight: SIZE, columns: 1, count: 1 },
    poses: [{ x: MOUTH.x, y: MOUTH.y, width: MOUTH.w, angle: 0 }],
    blinks: [],
    mouths: { sheet: { url: 'mouths.png', cellWidth: CELL.width, cellHeight: CELL.height, columns: 2, count: 2 }, mouthWidth: MOUTH.w },
    visemes: Object.fromEntries(VISEMES.map((v) => [v, { cell: v === 'A' ? 1 : 0, source: 'warp' }])) as FaceRig['visemes'],
  };
  return { rig, idle: new Uint8Array(await idle.encode('png')), mouths: new Uint8Array(await mouths.encode('png')) };
}

const luma = (data: Uint8ClampedArray, x: number, y: number) => {
  const i = (y * SIZE + x) * 4;
  return 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
};

/** Runs of rows along the face's middle column where brightness falls by over a quarter of skin-to-background. */
function chinEdges(data: Uint8ClampedArray): number[] {
  const contrast = 0.25 * (luma(new Uint8ClampedArray([...SKIN, 255]), 0, 0) - luma(new Uint8ClampedArray([...BACKGROUND, 255]), 0, 0));
  const edges: number[] = [];
  let inEdge = false;
  for (let y = Math.ceil(MOUTH.y + (MADE_JAW_DROP.A + 0.5) * HALF); y < MOUTH.y + (CHIN_OPEN + 0.8) * HALF; y++) {
    const at = (row: number) => [-1, 0, 1].reduce((s, dx) => s + luma(data, MOUTH.x + dx, row), 0) / 3;
    const falling = at(y - 1) - at(y + 1) > contrast;
    if (falling && !inEdge) edges.push(y);
    inEdge = falling;
  }
  return edges;
}

describe('a generated video blending one mouth of a trained face into the next', () => {
  it('shows one chin at every frame of the blend, never two, moving down with it', async () => {
    const sheets = await drawnRig();
    const frameMs = 1000 / RIG_VIDEO_FPS;
    // The open mouth is heard from 30 ms after frame 4, so that frame is drawn halfway into it (a 60 ms blend).
    const cues = [{ atMs: 0, viseme: 'rest' as const }, { atMs: 4 * frameMs + 30, viseme: 'A' as const }];
    const input: RigVideoInput = { ...sheets, cues, durationSeconds: 1 };
    const images = { idle: await loadImage(Buffer.from(sheets.idle)), mouths: await loadImage(Buffer.from(sheets.mouths)) };
    const canvas = createCanvas(SIZE, SIZE);
    const ctx = canvas.getContext('2d');
    const chins: Array<{ blend: number; edges: number[] }> = [];
    for (let n = 0; n <= 5; n++) {
      const { viseme, blend } = mouthAt(cues, n * frameMs);
      drawSpeakingFrame(ctx, input, images, n);
      chins.push({ blend: viseme === 'A' ? 1 : blend, edges: chinEdges(ctx.getImageData(0, 0, SIZE, SIZE).data) });
    }
    console.log(chins.map((c) => `blend ${c.blend.toFixed(2)}: chin edges at rows ${c.edges.join(', ')}`).join('\n'));
    assert.ok(chins.some((c) => c.blend > 0.3 && c.blend < 0.7), 'a frame mid-blend');
    for (const c of chins) assert.equal(c.edges.length, 1, `one chin edge at blend ${c.blend.toFixed(2)} (rows ${c.edges.join(', ')})`);
    assert.ok(Math.abs(chins[0]!.edges[0]! - (MOUTH.y + CHIN_REST * HALF)) <= 3, 'the resting chin first');
    assert.ok(Math.abs(chins.at(-1)!.edges[0]! - (MOUTH.y + CHIN_OPEN * HALF)) <= 3, 'the dropped chin last');
    for (let k = 1; k < chins.length; k++) assert.ok(chins[k]!.edges[0]! >= chins[k - 1]!.edges[0]!, 'moving down');
  });
});
