// A trained face speaking, drawn on the server: each frame is the rig's idle frame (looping) with the
// mouth of the viseme heard at that moment placed by the frame's pose, blended into the next viseme as it
// comes (jaws moved to the blend's before the mouths mix, as in the browser), and an "AI" mark in the top-right corner. Frames are drawn with @napi-rs/canvas and piped to
// ffmpeg as raw RGBA; the result is a silent MP4 exactly as long as the speech, which the renderer then
// puts the speech under (as it does any face video).
import { createCanvas, ImageData, loadImage, type Canvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import { createJawMixer, type JawMixer } from '../../../../face-drawing/jaw-mix.js';
import { cellOrigin, type FaceRig } from '../../../../protocol/faces/rig.js';
import { paintMeshFrame } from '../../../../face-drawing/mesh-paint.js';
import { Blinks, channelsOf, idleFrameAt, livingHead, seeded } from '../../../../face-drawing/mesh.js';
import type { Viseme } from '../../../../protocol/visemes.js';
import { encodeFrames, type FrameProgress } from './frame-encoder.js';

export const RIG_VIDEO_FPS = 25;
/** A viseme eases into the next over this long before the next begins (no popping). */
const BLEND_MS = 60;

export interface VisemeCue {
  atMs: number;
  viseme: Viseme;
}

/** The viseme shown at `ms`, the next one and how far the blend into it has come (0…1). */
export function mouthAt(cues: VisemeCue[], ms: number): { viseme: Viseme; next: Viseme; blend: number } {
  let i = -1;
  while (i + 1 < cues.length && cues[i + 1]!.atMs <= ms) i++;
  const viseme = i >= 0 ? cues[i]!.viseme : 'rest';
  const upcoming = cues[i + 1];
  if (!upcoming || upcoming.atMs - ms > BLEND_MS) return { viseme, next: viseme, blend: 0 };
  return { viseme, next: upcoming.viseme, blend: 1 - (upcoming.atMs - ms) / BLEND_MS };
}

/** The "AI" disclosure, drawn as strokes (no font needed) on a dark rounded badge. */
export function drawAiMark(ctx: SKRSContext2D, width: number): void {
  const h = Math.round(width * 0.07);
  const w = Math.round(h * 1.5);
  const x = width - w - Math.round(h * 0.4);
  const y = Math.round(h * 0.4);
  ctx.save();
  ctx.fillStyle = 'rgba(0, 0, 0, 0.6)';
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, h * 0.25);
  ctx.fill();
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = Math.max(2, h * 0.12);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  const top = y + h * 0.22;
  const bottom = y + h * 0.78;
  const ax = x + w * 0.38;
  ctx.beginPath();
  ctx.moveTo(ax - h * 0.26, bottom);
  ctx.lineTo(ax, top);
  ctx.lineTo(ax + h * 0.26, bottom);
  ctx.moveTo(ax - h * 0.15, y + h * 0.6);
  ctx.lineTo(ax + h * 0.15, y + h * 0.6);
  ctx.moveTo(x + w * 0.72, top);
  ctx.lineTo(x + w * 0.72, bottom);
  ctx.stroke();
  ctx.restore();
}

export interface RigVideoInput {
  rig: FaceRig;
  idle: Uint8Array;
  mouths: Uint8Array;
  cues: VisemeCue[];
  durationSeconds: number;
}

export interface RigImages {
  idle: Image;
  mouths: Image;
}

/** The rig's two sheets, decoded. */
async function rigImages(input: Pick<RigVideoInput, 'idle' | 'mouths'>): Promise<RigImages> {
  return { idle: await loadImage(Buffer.from(input.idle)), mouths: await loadImage(Buffer.from(input.mouths)) };
}

/** One mixer per pair of decoded sheets (its scratch canvases and mask made once). */
const mixers = new WeakMap<RigImages, JawMixer<Image | Canvas>>();

function mixerOf(rig: FaceRig, images: RigImages): JawMixer<Image | Canvas> {
  let mixer = mixers.get(images);
  if (mixer) return mixer;
  mixer = createJawMixer<Image | Canvas>(rig, images.idle, images.mouths, {
    surface(width, height) {
      const canvas = createCanvas(width, height);
      return { canvas, context: canvas.getContext('2d') };
    },
    image(rgba, width, height) {
      const canvas = createCanvas(width, height);
      canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
      return canvas;
    },
  });
  mixers.set(images, mixer);
  return mixer;
}

/** A video's blinks: the same every time it is drawn (seeded), drawn in frame order. */
const videoBlinks = new WeakMap<RigVideoInput, Blinks>();

/** Draws frame `n` of the speaking face onto `ctx`. */
export function drawSpeakingFrame(ctx: SKRSContext2D, input: RigVideoInput, images: RigImages, n: number): void {
  const { rig } = input;
  const ms = (n * 1000) / RIG_VIDEO_FPS;
  const i = Math.floor((ms / 1000) * rig.fps) % rig.idle.count;
  if (rig.mesh) {
    const i = idleFrameAt(rig, ms);
    // A version-2 rig: its mesh deformed as the browser draws it (face-drawing/mesh-paint.ts).
    const { viseme, next, blend } = mouthAt(input.cues, ms);
    const channels = channelsOf(
      new Map<Viseme, number>(
        next === viseme
          ? [[viseme, 1]]
          : [
              [viseme, 1 - blend],
              [next, blend],
            ],
      ),
    );
    let blinks = videoBlinks.get(input);
    if (!blinks) videoBlinks.set(input, (blinks = new Blinks(seeded(7), 0)));
    if (!rig.blinks?.length) channels.blinkL = channels.blinkR = blinks.closure(ms);
    const head = rig.mesh.motion === 'generated' ? livingHead(ms, channels.jaw * 0.5, rig.width) : undefined;
    paintMeshFrame(ctx, rig, images.idle, images.mouths, i, channels, head);
    drawAiMark(ctx, rig.width);
    return;
  }
  const [ix, iy] = cellOrigin(rig.idle, i);
  ctx.globalAlpha = 1;
  ctx.drawImage(images.idle, ix, iy, rig.idle.cellWidth, rig.idle.cellHeight, 0, 0, rig.width, rig.height);
  const pose = rig.poses[i]!;
  const { viseme, next, blend } = mouthAt(input.cues, ms);
  // The two shapes by weight (rest's the idle frame's own mouth), their jaws moved to the blend's before they
  // mix, as the elements draw them (face-drawing/jaw-mix.ts): one chin, never two.
  const weights = new Map<Viseme, number>(
    next === viseme
      ? [[viseme, 1]]
      : [
          [viseme, 1 - blend],
          [next, blend],
        ],
  );
  ctx.save();
  mixerOf(rig, images).draw(ctx, i, pose, weights);
  ctx.restore();
  ctx.globalAlpha = 1;
  drawAiMark(ctx, rig.width);
}

/**
 * The speaking face as a silent H.264 MP4 written to `out` (`ffmpeg`: the binary's path). Runs in the video
 * renderer's process (rig-render-entry.ts), never in the service.
 */
export async function renderRigVideo(ffmpeg: string, input: RigVideoInput, out: string, progress: FrameProgress = {}): Promise<void> {
  const { rig } = input;
  const images = await rigImages(input);
  const canvas = createCanvas(rig.width, rig.height);
  const ctx = canvas.getContext('2d');
  const frames = Math.max(1, Math.ceil(input.durationSeconds * RIG_VIDEO_FPS));
  await encodeFrames(
    ffmpeg,
    { width: rig.width, height: rig.height, fps: RIG_VIDEO_FPS, frames },
    out,
    (n) => {
      drawSpeakingFrame(ctx, input, images, n);
      return ctx.getImageData(0, 0, rig.width, rig.height).data;
    },
    progress,
  );
}
