// A face the elements draw themselves (the built-in Ada): painted on a canvas about 25 times a second,
// its mouth easing towards the shape of what is being heard, blinking every few seconds, breathing a
// little while idle; the canvas's stream is the PAL's video track.
import {
  ADA,
  FACE_HEIGHT,
  FACE_WIDTH,
  BACKGROUND,
  MOUTHS,
  adaEyelids,
  adaLashes,
  adaLayers,
  mixMouths,
  mouthLayers,
  type FaceLayer,
  type MouthShape,
} from '../../../../face-drawing/ada.js';
import type { Viseme } from '../../../../protocol/visemes.js';
import { runFace, type FaceTimeline, type FaceTrack } from './face-track.js';
import { PresentationDelay } from './presentation.js';

const FRAME_MS = 40;
/** Share of the way to the target mouth covered per frame: about 80 ms to settle. */
const EASE = 0.55;
/**
 * Closing, the share is larger: the mouth shuts within a frame or two as the sound stops. (At 0.55 it kept
 * moving for 130-220 ms after a phrase's last sound, at the <video> in Chromium, while it opened with its
 * first; test/realtime/e2e/lip-sync-chromium.test.ts.)
 */
const EASE_CLOSE = 0.85;
const BLINK_MS = 140;
const pathCache = new Map<string, Path2D>();
function path2d(d: string): Path2D {
  let p = pathCache.get(d);
  if (!p) {
    // Mouth paths change every frame: only the fixed layers are worth keeping.
    p = new Path2D(d);
    if (pathCache.size < 64) pathCache.set(d, p);
  }
  return p;
}

/** Ada's mouth a frame on from `mouth`, easing towards the shape of `viseme` (faster when it closes). */
export function easeMouth(mouth: MouthShape, viseme: Viseme): MouthShape {
  return mixMouths(mouth, MOUTHS[viseme], viseme === 'rest' ? EASE_CLOSE : EASE);
}

export function isDrawnFace(model: string | null | undefined): boolean {
  return model === ADA;
}

export interface DrawnFaceOptions {
  reducedMotion?: boolean;
  random?: () => number;
  /** The face's clock, ms (default performance.now()); tests drive it. */
  clock?: () => number;
  /** How late its frames reach the <video> (default: measured at the <video> that shows it). */
  presentation?: PresentationDelay;
}

export function createDrawnFaceTrack(timeline: FaceTimeline, options: DrawnFaceOptions = {}): FaceTrack {
  const canvas = document.createElement('canvas');
  canvas.width = FACE_WIDTH;
  canvas.height = FACE_HEIGHT;
  const context = canvas.getContext('2d')!;
  const random = options.random ?? Math.random;
  const clock = options.clock ?? (() => performance.now());
  const reducedMotion = options.reducedMotion ?? globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const background = context.createRadialGradient(
    FACE_WIDTH / 2,
    FACE_HEIGHT * 0.35,
    0,
    FACE_WIDTH / 2,
    FACE_HEIGHT * 0.35,
    FACE_WIDTH * 0.75,
  );
  background.addColorStop(0, BACKGROUND[0]);
  background.addColorStop(1, BACKGROUND[1]);
  let mouth: MouthShape = MOUTHS.rest;
  let nextBlink = clock() + 1500 + random() * 2500;
  const started = clock();
  const presentation = options.presentation ?? new PresentationDelay();

  const paint = (layers: readonly FaceLayer[]) => {
    for (const layer of layers) {
      context.globalAlpha = layer.opacity ?? 1;
      context.fillStyle = layer.fill;
      context.fill(path2d(layer.path));
    }
    context.globalAlpha = 1;
  };

  const draw = () => {
    const now = clock();
    // The shape heard when this frame reaches the screen (the player adds half a frame for the frames' phase),
    // with no lead of its own: her first frame of a shape shows it more than half way. (70 ms made up for mouth
    // shapes the room sent up to 100 ms late, voice.ts; with them on time her mouth first moved 30-85 ms before
    // the voice at the <video> with 30, and 23-89 ms before it with 20 in a CI run with every core busy.)
    const aheadMs = presentation.ms;
    presentation.drawn(now);
    mouth = easeMouth(mouth, timeline.visemeNow(aheadMs));
    if (now > nextBlink + BLINK_MS) nextBlink = now + 2000 + random() * 4000;
    const blinking = now >= nextBlink;
    const t = (now - started) / 1000;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = background;
    context.fillRect(0, 0, FACE_WIDTH, FACE_HEIGHT);
    if (!reducedMotion) {
      // Breathing and a slight sway, around the neck.
      const sway = Math.sin(t * 0.7) * 0.01;
      context.translate(FACE_WIDTH / 2, 420);
      context.rotate(sway);
      context.translate(-FACE_WIDTH / 2, -420 + Math.sin(t * 1.6) * 1.5);
    }
    paint(adaLayers.filter((l) => !(l.eyes && blinking)));
    paint(blinking ? adaEyelids : adaLashes);
    paint(mouthLayers(mouth));
    timeline.drawn?.(performance.now() + aheadMs);
  };

  return runFace(canvas, FRAME_MS, draw, presentation);
}
