// A trained face blending a closed mouth into an open one shows one chin at every moment: the jaw lines of
// the two mouths (and of the idle frame under them) are moved to the blended height before the images are
// mixed. A plain cross-fade of the two showed both chins at once, each at half contrast (a doubled jaw line).
// The rig is drawn here like a made one: a face whose chin the open mouth's patch moves down.
import { expect } from '@open-wc/testing';
import { BLEND_MS, createRigFace } from '../../../src/palkit/client/media/face/rig-face.js';
import type { FaceTimeline } from '../../../src/palkit/client/media/face/face-track.js';
import { MADE_JAW_DROP, patchAlpha } from '../../../src/protocol/faces/jaw.js';
import type { FaceRig } from '../../../src/protocol/faces/rig.js';
import { VISEMES, type Viseme } from '../../../src/protocol/visemes.js';
import { until } from '../helpers/fakes.js';
import { waitFor } from '../helpers/wait-for.js';

const SIZE = 160;
/** The mouth's centre and width on the idle frame; the mouth cell draws it at the same scale. */
const MOUTH = { x: 80, y: 70, w: 40 };
const HALF = MOUTH.w / 2;
const CELL = { width: 112, height: 128 };
const SKIN = '#d8a080';
const BACKGROUND = '#283040';
/** The chin, below the mouth's centre in half-widths: at rest, and with the open mouth's jaw dropped. */
const CHIN_REST = 1.3;
const CHIN_OPEN = CHIN_REST + MADE_JAW_DROP.A;

function canvasOf(width: number, height: number, paint: (c: CanvasRenderingContext2D) => void): HTMLCanvasElement {
  const canvas = Object.assign(document.createElement('canvas'), { width, height });
  paint(canvas.getContext('2d')!);
  return canvas;
}

/** A face (skin over a dark background) centred at (cx, mouth y), its chin `chin` half-widths below the mouth, the lips apart by `open`. */
function paintFace(c: CanvasRenderingContext2D, cx: number, my: number, chin: number, open: number): void {
  c.fillStyle = BACKGROUND;
  c.fillRect(cx - SIZE, my - SIZE, 2 * SIZE, 2 * SIZE);
  const bottom = my + chin * HALF;
  const top = my - 60;
  c.fillStyle = SKIN;
  c.beginPath();
  c.ellipse(cx, (top + bottom) / 2, 50, (bottom - top) / 2, 0, 0, 2 * Math.PI);
  c.fill();
  c.fillStyle = '#7a2a2a'; // lips
  c.fillRect(cx - HALF, my - 4, MOUTH.w, 8 + open * HALF);
  c.fillStyle = '#140404'; // the opening (a hairline when closed)
  c.fillRect(cx - HALF + 3, my - 0.5, MOUTH.w - 6, 1 + open * HALF);
}

const png = (canvas: HTMLCanvasElement) => new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));

/** The rig's files: one idle frame, and a mouth sheet of the resting mouth and the open one (its jaw dropped), made patches with their alpha. */
async function drawnRig(): Promise<typeof fetch> {
  const idle = canvasOf(SIZE, SIZE, (c) => paintFace(c, MOUTH.x, MOUTH.y, CHIN_REST, 0));
  const mouths = canvasOf(CELL.width * 2, CELL.height, (c) => {
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
  });
  const rig: FaceRig = {
    version: 1, width: SIZE, height: SIZE, fps: 10,
    idle: { url: 'idle.png', cellWidth: SIZE, cellHeight: SIZE, columns: 1, count: 1 },
    poses: [{ x: MOUTH.x, y: MOUTH.y, width: MOUTH.w, angle: 0 }],
    blinks: [],
    mouths: { sheet: { url: 'mouths.png', cellWidth: CELL.width, cellHeight: CELL.height, columns: 2, count: 2 }, mouthWidth: MOUTH.w },
    visemes: Object.fromEntries(VISEMES.map((v) => [v, { cell: v === 'A' ? 1 : 0, source: 'warp' }])) as FaceRig['visemes'],
  };
  const files = new Map<string, Blob | string>([['/faces/j/rig.json', JSON.stringify(rig)], ['/faces/j/idle.png', await png(idle)], ['/faces/j/mouths.png', await png(mouths)]]);
  return (async (input: RequestInfo | URL) => {
    const file = files.get(new URL(String(input), location.href).pathname);
    return file === undefined ? new Response('not found', { status: 404 }) : new Response(file);
  }) as typeof fetch;
}

async function frameOf(track: MediaStreamTrack): Promise<ImageData> {
  const video = document.createElement('video');
  video.muted = true;
  video.srcObject = new MediaStream([track]);
  await video.play();
  await until(() => video.videoWidth > 0, 'a frame');
  const canvas = canvasOf(SIZE, SIZE, (c) => c.drawImage(video, 0, 0, SIZE, SIZE));
  video.pause();
  return canvas.getContext('2d')!.getImageData(0, 0, SIZE, SIZE);
}

const luma = (frame: ImageData, x: number, y: number) => {
  const i = (Math.round(y) * SIZE + x) * 4;
  return 0.299 * frame.data[i]! + 0.587 * frame.data[i + 1]! + 0.114 * frame.data[i + 2]!;
};

/** The chin's edges along the face's middle column: runs of rows where brightness falls by over a quarter of skin-to-background. */
function chinEdges(frame: ImageData): number[] {
  const contrast = 0.25 * (luma(skinAndBackground, 0, 0) - luma(skinAndBackground, 1, 0));
  const edges: number[] = [];
  let inEdge = false;
  // From below the widest opening to past the lowest chin, averaged over three columns.
  for (let y = Math.ceil(MOUTH.y + (MADE_JAW_DROP.A + 0.5) * HALF); y < MOUTH.y + (CHIN_OPEN + 0.8) * HALF; y++) {
    const at = (row: number) => [-1, 0, 1].reduce((s, dx) => s + luma(frame, MOUTH.x + dx, row), 0) / 3;
    const falling = at(y - 1) - at(y + 1) > contrast;
    if (falling && !inEdge) edges.push(y);
    inEdge = falling;
  }
  return edges;
}
const skinAndBackground = (() => {
  const c = canvasOf(2, 1, (g) => {
    g.fillStyle = SKIN;
    g.fillRect(0, 0, 1, 1);
    g.fillStyle = BACKGROUND;
    g.fillRect(1, 0, 1, 1);
  });
  return c.getContext('2d')!.getImageData(0, 0, 2, 1);
})();

/** Whether the mouth and chin differ from the resting frame's (by more than the video's coding noise). */
function changed(rest: ImageData, frame: ImageData): boolean {
  let sum = 0;
  let n = 0;
  for (let y = MOUTH.y - HALF; y < MOUTH.y + 3 * HALF; y++)
    for (let x = MOUTH.x - HALF; x < MOUTH.x + HALF; x++, n++) sum += Math.abs(luma(rest, x, y) - luma(frame, x, y));
  return sum / n > 2;
}

/** Darkness of the opening's middle (0 closed, 1 fully open): how far open the mouth shows (printed with the figures). */
function openness(frame: ImageData): number {
  const y = MOUTH.y + (MADE_JAW_DROP.A * HALF) / 2;
  return Math.max(0, Math.min(1, (luma(frame, MOUTH.x, MOUTH.y - 12) - luma(frame, MOUTH.x, y)) / 150));
}

async function frameAtBlend(webgl: 'any' | 'never', blend: number): Promise<{ renderer: string; frame: ImageData }> {
  const state = { now: 0, viseme: 'rest' as Viseme };
  const timeline: FaceTimeline = { visemeNow: () => state.viseme, speaking: () => state.viseme !== 'rest' };
  const face = await createRigFace('/faces/j/rig.json', timeline, { clock: () => state.now, random: () => 0.99, reducedMotion: true, webgl, fetch: await drawnRig() });
  try {
    const rest = await frameOf(face.track);
    if (blend > 0) {
      state.viseme = 'A';
      state.now += BLEND_MS * blend;
    }
    // The clock stands still from here: every frame drawn shows that moment of the blend, so the first frame
    // the video shows that differs from the resting one is that moment's.
    let frame = await frameOf(face.track);
    if (blend > 0) await waitFor(async () => changed(rest, (frame = await frameOf(face.track))), { timeout: 8_000, interval: 50 }).catch(() => undefined);
    return { renderer: face.renderer, frame };
  } finally {
    face.stop();
  }
}

describe('a trained face blending one mouth into the next', () => {
  for (const webgl of ['never', 'any'] as const) {
    it(`shows one chin at every moment of the blend, never two (${webgl === 'never' ? 'canvas 2D' : 'WebGL'})`, async function () {
      this.timeout(15_000);
      if (webgl === 'any' && !document.createElement('canvas').getContext('webgl')) this.skip();
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
});
