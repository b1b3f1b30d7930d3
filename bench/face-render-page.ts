// The page of bench/face-render.bench.ts: a 640×640 trained face (a synthetic rig with the sizes a trainer
// writes: 50 idle frames, a mouth per viseme) and Ada, each drawn for a few seconds while the viseme changes
// every 80 ms, shown in a <video> as a visitor sees it.
import { createRigFaceTrack } from '../src/palkit/client/media/face/rig-face.js';
import { createDrawnFaceTrack } from '../src/palkit/client/media/face/drawn-face.js';
import type { FaceTimeline, FaceTrack } from '../src/palkit/client/media/face/face-track.js';
import type { FaceRig } from '../src/protocol/faces/rig.js';
import { VISEMES } from '../src/protocol/visemes.js';

const SIZE = 640;
const IDLE_FRAMES = 50;

function canvas(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return [c, c.getContext('2d')!];
}

/** Idle frames with a photograph's detail (noise over a gradient), so decoding and drawing cost what real ones do. */
async function syntheticRig(): Promise<{ rig: FaceRig; idle: ImageBitmap; mouths: ImageBitmap }> {
  const columns = 8;
  const [idleSheet, c] = canvas(SIZE * columns, SIZE * Math.ceil(IDLE_FRAMES / columns));
  const noise = c.createImageData(SIZE, SIZE);
  for (let i = 0; i < noise.data.length; i += 4) {
    const v = (Math.random() * 255) | 0;
    noise.data.set([v, (v * 0.8) | 0, (v * 0.7) | 0, 255], i);
  }
  for (let f = 0; f < IDLE_FRAMES; f++) {
    const [x, y] = [(f % columns) * SIZE, Math.floor(f / columns) * SIZE];
    c.putImageData(noise, x, y);
    c.globalAlpha = 0.7;
    c.fillStyle = `hsl(${20 + f}, 40%, 60%)`;
    c.beginPath();
    c.ellipse(x + SIZE / 2, y + SIZE / 2 + Math.sin(f / 8) * 4, 200, 260, 0, 0, 2 * Math.PI);
    c.fill();
    c.globalAlpha = 1;
  }
  const [mouthSheet, m] = canvas(160 * 5, 96 * 2);
  VISEMES.forEach((_, i) => {
    const [x, y] = [(i % 5) * 160, Math.floor(i / 5) * 96];
    const g = m.createRadialGradient(x + 80, y + 48, 10, x + 80, y + 48, 70);
    g.addColorStop(0, 'rgba(90,20,30,1)');
    g.addColorStop(1, 'rgba(200,120,110,0)');
    m.fillStyle = g;
    m.fillRect(x, y, 160, 96);
  });
  const rig: FaceRig = {
    version: 1,
    width: SIZE,
    height: SIZE,
    fps: 25,
    idle: { url: 'idle.jpg', cellWidth: SIZE, cellHeight: SIZE, columns, count: IDLE_FRAMES },
    poses: Array.from({ length: IDLE_FRAMES }, (_, f) => ({
      x: SIZE / 2,
      y: SIZE * 0.7 + Math.sin(f / 8) * 4,
      width: 120,
      angle: Math.sin(f / 10) * 0.05,
    })),
    mouths: { sheet: { url: 'mouths.png', cellWidth: 160, cellHeight: 96, columns: 5, count: VISEMES.length }, mouthWidth: 110 },
    visemes: Object.fromEntries(VISEMES.map((v, i) => [v, { cell: i, source: 'warp' }])) as FaceRig['visemes'],
  };
  return { rig, idle: await createImageBitmap(idleSheet), mouths: await createImageBitmap(mouthSheet) };
}

export interface FaceFigures {
  seconds: number;
  /** Frames the face drew, and those the <video> presented, per second. */
  drawnFps: number;
  shownFps: number;
  /** Main-thread time of one frame's drawing, ms. */
  medianMs: number;
  p95Ms: number;
  /** Share of one core the drawing takes on the main thread. */
  mainThreadShare: number;
}

async function measure(make: (timeline: FaceTimeline) => FaceTrack, seconds: number): Promise<FaceFigures> {
  let began = 0;
  const work: number[] = [];
  const started = performance.now();
  const timeline: FaceTimeline = {
    visemeNow: () => {
      began = performance.now();
      return VISEMES[Math.floor((performance.now() - started) / 80) % VISEMES.length]!;
    },
    speaking: () => true,
    drawn: () => work.push(performance.now() - began),
  };
  const face = make(timeline);
  const video = document.createElement('video');
  video.muted = true;
  video.width = SIZE;
  video.height = SIZE;
  document.body.append(video);
  video.srcObject = new MediaStream([face.track]);
  await video.play();
  let shown = 0;
  const count = () => {
    shown++;
    video.requestVideoFrameCallback(count);
  };
  video.requestVideoFrameCallback(count);
  const from = performance.now();
  const drawnBefore = work.length;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = (performance.now() - from) / 1000;
  const frames = work.slice(drawnBefore);
  face.stop();
  video.remove();
  const sorted = [...frames].sort((a, b) => a - b);
  const total = frames.reduce((a, b) => a + b, 0);
  return {
    seconds: elapsed,
    drawnFps: frames.length / elapsed,
    shownFps: shown / elapsed,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    mainThreadShare: total / 1000 / elapsed,
  };
}

let loaded: Awaited<ReturnType<typeof syntheticRig>> | undefined;
const bench = {
  /** Paints and decodes the rig (not counted: a call does it once, before the face shows). */
  async prepare(): Promise<void> {
    loaded = await syntheticRig();
  },
  /** A version-2 rig (a mesh: test/fixtures/rig-v2, a photo whose head moves on every frame) from its files, base64. */
  async prepareMesh(json: string, idle: string, mouths: string): Promise<void> {
    const bitmap = async (b64: string) =>
      createImageBitmap(await (await fetch(`data:application/octet-stream;base64,${b64}`)).blob(), { premultiplyAlpha: 'premultiply' });
    loaded = { rig: JSON.parse(json) as FaceRig, idle: await bitmap(idle), mouths: await bitmap(mouths) };
  },
  /** `webgl` as the face's option ('any': even software WebGL). The figures say which renderer drew. */
  async rig(seconds: number, webgl: 'auto' | 'any' | 'never' = 'auto'): Promise<FaceFigures & { renderer: string }> {
    let renderer = '';
    const figures = await measure((timeline) => {
      const face = createRigFaceTrack(loaded!, timeline, { reducedMotion: false, webgl });
      renderer = face.renderer;
      return face;
    }, seconds);
    return { ...figures, renderer };
  },
  ada(seconds: number): Promise<FaceFigures> {
    return measure((timeline) => createDrawnFaceTrack(timeline), seconds);
  },
};
(window as unknown as { bench: typeof bench }).bench = bench;
