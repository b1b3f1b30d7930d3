// The page of bench/face-engines.bench.ts: a trained face (its rig served beside this page) or Ada drawn for a
// few seconds, shown in a <video>, the mouth open for 300 ms every 800 ms with no look-ahead. Measured: the time
// each frame's drawing takes, the time between draws (the 40 ms timer, late where the main thread stalls), and
// the delay from the draw that first asks for the open mouth to the animation frame whose <video> shows it (the
// draw's way through the canvas's capture to the <video>: what a face's look-ahead has to cover). Read at
// animation frames, as WebKitGTK's <video> reports no frames of a MediaStream.
import { createRigFaceTrack, loadRig } from '../src/palkit/client/media/face/rig-face.js';
import { createDrawnFaceTrack } from '../src/palkit/client/media/face/drawn-face.js';
import type { FaceTimeline, FaceTrack } from '../src/palkit/client/media/face/face-track.js';
import { PresentationDelay } from '../src/palkit/client/media/face/presentation.js';
import type { Viseme } from '../src/protocol/visemes.js';
import { paintMeshFrame } from '../src/face-drawing/mesh-paint.js';
import { channelsOf, idleFrameAt } from '../src/face-drawing/mesh.js';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  width: number;
  height: number;
}

export interface EngineFigures {
  renderer: string;
  drawnFps: number;
  /** Time of one frame's drawing, ms (median, p90, max). */
  drawMs: [number, number, number];
  /** Time between draws, ms (median, p90, max). */
  gapMs: [number, number, number];
  /** Animation frames a second (the page's own pace). */
  animationFps: number;
  /** Draw to <video>, ms, one per opening of the mouth. */
  toVideoMs: number[];
  /** The main thread's stalls over 120 ms (a 20 ms timer answered late). */
  stallsMs: number[];
}

const OPEN_EVERY_MS = 800;
const grey = (d: Uint8ClampedArray) => Array.from({ length: d.length / 4 }, (_, i) => (d[i * 4]! + d[i * 4 + 1]! + d[i * 4 + 2]!) / 3);
const distance = (a: number[], b: number[]) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length;
const quantiles = (xs: number[]): [number, number, number] => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
  return [at(0.5), at(0.9), at(1)];
};

async function measure(
  make: (timeline: FaceTimeline) => FaceTrack & { renderer?: string },
  box: Box,
  seconds: number,
): Promise<EngineFigures> {
  const draws: Array<{ at: number; ms: number; open: boolean }> = [];
  let began = 0;
  let open = false;
  const started = performance.now();
  const timeline: FaceTimeline = {
    visemeNow: () => {
      began = performance.now();
      const phase = (began - started) % OPEN_EVERY_MS;
      open = phase >= 400 && phase < 700;
      return (open ? 'A' : 'rest') as Viseme;
    },
    speaking: () => true,
    drawn: () => draws.push({ at: began, ms: performance.now() - began, open }),
  };
  const face = make(timeline);
  const video = Object.assign(document.createElement('video'), { muted: true, playsInline: true, autoplay: true });
  document.body.append(video);
  video.srcObject = new MediaStream([face.track]);
  await video.play().catch(() => undefined);
  const reader = Object.assign(document.createElement('canvas'), { width: 24, height: 16 }).getContext('2d', { willReadFrequently: true })!;
  const reads: Array<{ at: number; grey: number[] }> = [];
  let animationFrames = 0;
  const stallsMs: number[] = [];
  let beat = performance.now();
  const heart = setInterval(() => {
    const now = performance.now();
    if (now - beat > 120) stallsMs.push(Math.round(now - beat));
    beat = now;
  }, 20);
  let running = true;
  const read = (now: number) => {
    if (!running) return;
    animationFrames++;
    if (video.videoWidth) {
      const [sx, sy] = [video.videoWidth / box.width, video.videoHeight / box.height];
      reader.drawImage(video, box.x * sx, box.y * sy, box.w * sx, box.h * sy, 0, 0, 24, 16);
      reads.push({ at: now, grey: grey(reader.getImageData(0, 0, 24, 16).data) });
    }
    requestAnimationFrame(read);
  };
  requestAnimationFrame(read);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  running = false;
  clearInterval(heart);
  face.stop();
  video.remove();
  const elapsed = (performance.now() - started) / 1000;
  const toVideoMs: number[] = [];
  draws.forEach((draw, i) => {
    if (!draw.open || draws[i - 1]?.open !== false) return;
    const before = reads.findLast((r) => r.at <= draw.at);
    const shown = before && reads.find((r) => r.at > draw.at && distance(r.grey, before.grey) > 6);
    if (shown && shown.at - draw.at < OPEN_EVERY_MS) toVideoMs.push(Math.round(shown.at - draw.at));
  });
  return {
    renderer: face.renderer ?? '2d',
    drawnFps: draws.length / elapsed,
    drawMs: quantiles(draws.map((d) => d.ms)),
    gapMs: quantiles(draws.slice(1).map((d, i) => d.at - draws[i]!.at)),
    animationFps: animationFrames / elapsed,
    toVideoMs,
    stallsMs,
  };
}

const bench = {
  /** The rig at /rig/rig.json; `webgl` as the face's option. */
  async rig(seconds: number, webgl: 'auto' | 'any' | 'never'): Promise<EngineFigures> {
    const loaded = await loadRig('/rig/rig.json');
    const pose = loaded.rig.poses[0]!;
    const box = {
      x: pose.x - pose.width * 0.6,
      y: pose.y - pose.width * 0.3,
      w: pose.width * 1.2,
      h: pose.width * 0.8,
      width: loaded.rig.width,
      height: loaded.rig.height,
    };
    return measure(
      (timeline) => createRigFaceTrack(loaded, timeline, { webgl, presentation: new PresentationDelay(0, null) }),
      box,
      seconds,
    );
  },
  /**
   * The trained face's 2D painting alone (no capture, no <video>): `frames` frames, the mouth moving through
   * the open shapes and the lids blinking, each timed on the main thread; ms (median, p90, max).
   */
  async paint(frames: number): Promise<[number, number, number]> {
    const { rig, idle, mouths } = await loadRig('/rig/rig.json');
    const context = Object.assign(document.createElement('canvas'), { width: rig.width, height: rig.height }).getContext('2d', {
      willReadFrequently: true,
    })!;
    const shapes: Viseme[] = ['A', 'E', 'O', 'rest', 'M', 'I'];
    const times: number[] = [];
    for (let n = 0; n < frames; n++) {
      const channels = channelsOf(new Map([[shapes[n % shapes.length]!, 1]]));
      channels.blinkL = channels.blinkR = n % 10 < 3 ? (n % 10) / 3 : 0;
      const started = performance.now();
      paintMeshFrame(context, rig, idle, mouths, idleFrameAt(rig, n * 40), channels);
      context.getImageData(0, 0, 1, 1); // the drawing done, not queued
      times.push(performance.now() - started);
    }
    return quantiles(times);
  },
  ada(seconds: number): Promise<EngineFigures> {
    return measure(
      (timeline) => createDrawnFaceTrack(timeline, { presentation: new PresentationDelay(0, null) }),
      { x: 430, y: 290, w: 100, h: 70, width: 960, height: 540 },
      seconds,
    );
  },
};
(window as unknown as { bench: typeof bench }).bench = bench;
