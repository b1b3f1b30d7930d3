// Ada, the built-in drawn face, speaking in a generated video: drawn from the same geometry the elements
// animate in the browser (face-drawing/ada.ts; src/palkit/client/media/face/drawn-face.ts), frame by frame
// at 25 fps — the mouth easing towards the viseme heard at each frame as it does live, a blink every few
// seconds, the slight breathing sway — with the "AI" mark, at 640 × 360. Runs in the video renderer's
// process (rig-render-entry.ts).
import { createCanvas, Path2D, type SKRSContext2D } from '@napi-rs/canvas';
import {
  BACKGROUND,
  FACE_HEIGHT,
  FACE_WIDTH,
  MOUTHS,
  adaEyelids,
  adaLashes,
  adaLayers,
  mixMouths,
  mouthLayers,
  type FaceLayer,
  type MouthShape,
} from '../../../../face-drawing/ada.js';
import { encodeFrames, type FrameProgress } from './frame-encoder.js';
import { drawAiMark, mouthAt, RIG_VIDEO_FPS, type VisemeCue } from './rig-video.js';

export const ADA_VIDEO = { width: 640, height: 360 } as const;
/** Share of the way to the heard mouth covered per frame, opening and closing (as drawn-face.ts does live). */
const EASE = 0.55;
const EASE_CLOSE = 0.85;
const BLINK_MS = 140;
/** A file knows what comes next: the easing trails its target by about a frame, so the target is read a frame early. */
const LOOK_AHEAD_MS = 1000 / RIG_VIDEO_FPS;

export interface AdaVideoInput {
  cues: VisemeCue[];
  durationSeconds: number;
}

/** Blinks every 2–6 s, the same for the same video (a small seeded generator, no Math.random). */
function blinkTimes(durationMs: number): number[] {
  let seed = 0x2f6b1d;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) % 10_000) / 10_000;
  const times: number[] = [];
  for (let t = 1500 + next() * 2500; t < durationMs; t += 2000 + next() * 4000) times.push(t);
  return times;
}

/** Draws Ada's frames in order: each call is the next frame (the mouth eases from the one before). */
export function adaFrames(input: AdaVideoInput): (ctx: SKRSContext2D, n: number) => void {
  const paths = new Map<string, Path2D>();
  const path = (d: string) => {
    let p = paths.get(d);
    if (!p) {
      p = new Path2D(d);
      if (paths.size < 64) paths.set(d, p);
    }
    return p;
  };
  const blinks = blinkTimes(input.durationSeconds * 1000);
  let mouth: MouthShape = MOUTHS.rest;
  return (ctx, n) => {
    const ms = (n * 1000) / RIG_VIDEO_FPS;
    const viseme = mouthAt(input.cues, ms + LOOK_AHEAD_MS).viseme;
    mouth = mixMouths(mouth, MOUTHS[viseme], viseme === 'rest' ? EASE_CLOSE : EASE);
    const blinking = blinks.some((t) => ms >= t && ms < t + BLINK_MS);
    const scale = ADA_VIDEO.width / FACE_WIDTH;
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    const background = ctx.createRadialGradient(
      FACE_WIDTH / 2,
      FACE_HEIGHT * 0.35,
      0,
      FACE_WIDTH / 2,
      FACE_HEIGHT * 0.35,
      FACE_WIDTH * 0.75,
    );
    background.addColorStop(0, BACKGROUND[0]);
    background.addColorStop(1, BACKGROUND[1]);
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, FACE_WIDTH, FACE_HEIGHT);
    const t = ms / 1000;
    ctx.translate(FACE_WIDTH / 2, 420);
    ctx.rotate(Math.sin(t * 0.7) * 0.01);
    ctx.translate(-FACE_WIDTH / 2, -420 + Math.sin(t * 1.6) * 1.5);
    const paint = (layers: readonly FaceLayer[]) => {
      for (const layer of layers) {
        ctx.globalAlpha = layer.opacity ?? 1;
        ctx.fillStyle = layer.fill;
        ctx.fill(path(layer.path));
      }
      ctx.globalAlpha = 1;
    };
    paint(adaLayers.filter((l) => !(l.eyes && blinking)));
    paint(blinking ? adaEyelids : adaLashes);
    paint(mouthLayers(mouth));
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    drawAiMark(ctx, ADA_VIDEO.width);
  };
}

/** Ada speaking as a silent H.264 MP4 written to `out`. */
export async function renderAdaVideo(ffmpeg: string, input: AdaVideoInput, out: string, progress: FrameProgress = {}): Promise<void> {
  const { width, height } = ADA_VIDEO;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const draw = adaFrames(input);
  const frames = Math.max(1, Math.ceil(input.durationSeconds * RIG_VIDEO_FPS));
  await encodeFrames(
    ffmpeg,
    { width, height, fps: RIG_VIDEO_FPS, frames },
    out,
    (n) => {
      draw(ctx, n);
      return ctx.getImageData(0, 0, width, height).data;
    },
    progress,
  );
}
