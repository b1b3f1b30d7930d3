// Step "build the rig": from the analysed clip (or photo) and its frames, the idle sheet (JPEG), a pose
// per idle frame, and the mouth sheet (WebP with alpha): real mouths from speaking frames where the
// footage has them, warped resting mouths for the rest. Drawn with @napi-rs/canvas (Skia, prebuilt in
// its npm package: no system libraries, no build step).
import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { FaceRig, RIG_VERSION, cellOrigin, type MouthPose } from '../../../../protocol/faces/rig.js';
import { VISEMES, type Viseme } from '../../../../protocol/visemes.js';
import { footageVisemes, idleRun, type Analysis, type Sample } from './analysis.js';
import type { Frame } from './landmarks.js';
import { isBlink, restShape } from './mouth.js';
import { warpMouth } from './warp.js';

/** Side of an idle frame as drawn. */
export const RIG_SIZE = 512;
/** Longest idle loop, in frames (a sheet of 8 × 6 cells of 512 px stays within every GPU's texture size). */
export const MAX_IDLE_FRAMES = 48;
const SHEET_COLUMNS = 8;
/** Mouth cells: the patch is centred, its lip corners MOUTH_WIDTH apart; room below for the chin a made viseme moves with the jaw. */
export const MOUTH_CELL = { width: 224, height: 256 };
/** A footage mouth's feathered ellipse (its own frame's jaw is not placed on another frame's chin). */
const FOOTAGE_MOUTH = { width: 192, height: 160 };
export const MOUTH_WIDTH = 84;
/** A photo's generated idle: this long, at this rate. */
const PHOTO_IDLE_SECONDS = 4;
const PHOTO_IDLE_FPS = 10;

/** How one idle frame is made from a source frame: a turn, a shift (rig pixels) and a zoom about the crop's centre. */
interface Motion { angle: number; dx: number; dy: number; zoom: number }
const STILL: Motion = { angle: 0, dx: 0, dy: 0, zoom: 1 };

export interface RigPlan {
  /** Source frame indexes the rig needs (idle loop and mouth frames). */
  frames: number[];
  /** The square crop around the face, in analysed pixels. */
  crop: { cx: number; cy: number; side: number };
  idle: Array<{ sample: Sample; motion: Motion }>;
  fps: number;
  footage: Map<Viseme, Sample>;
}

export function planRig(analysis: Analysis): RigPlan {
  let idle: RigPlan['idle'];
  let fps = analysis.fps;
  if (analysis.still) {
    // Slight head motion from one photo: periodic over the loop, so it loops without a seam.
    const sample = analysis.samples[0]!;
    const count = PHOTO_IDLE_SECONDS * PHOTO_IDLE_FPS;
    fps = PHOTO_IDLE_FPS;
    idle = Array.from({ length: count }, (_, k) => {
      const p = (2 * Math.PI * k) / count;
      return { sample, motion: { angle: 0.012 * Math.sin(p), dx: 3 * Math.sin(p + 1), dy: 2 * Math.sin(2 * p), zoom: 1 + 0.008 * Math.sin(p + 2) } };
    });
  } else {
    idle = loopSegment(idleRun(analysis)).map((sample) => ({ sample, motion: STILL }));
  }
  const boxes = idle.map((f) => f.sample.box);
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const size = median(boxes.map((b) => Math.max(b[2], b[3])));
  const side = Math.min(size * 2.4, analysis.width, analysis.height);
  const cx = Math.min(Math.max(median(boxes.map((b) => b[0] + b[2] / 2)), side / 2), analysis.width - side / 2);
  const cy = Math.min(Math.max(median(boxes.map((b) => b[1] + b[3] / 2)), side / 2), analysis.height - side / 2);
  const footage = analysis.still ? new Map<Viseme, Sample>() : (footageVisemes(analysis) as Map<Viseme, Sample>);
  // The resting mouth is the first idle frame's: the loop shows that mouth anyway.
  footage.set('rest', idle[0]!.sample);
  const frames = [...new Set([...idle.map((f) => f.sample.i), ...[...footage.values()].map((s) => s.i)])].sort((a, b) => a - b);
  return { frames, crop: { cx, cy, side }, idle, fps, footage };
}

/** Within a still, resting run: the segment whose last frame is most like its first (the seam least seen). */
function loopSegment(run: Sample[]): Sample[] {
  const length = Math.min(run.length, MAX_IDLE_FRAMES);
  if (length === run.length) return run;
  const distance = (a: Sample, b: Sample) => Math.hypot(a.pose.x - b.pose.x, a.pose.y - b.pose.y) + Math.abs(a.pose.width - b.pose.width) + Math.abs(a.box[2] - b.box[2]);
  let best = 0;
  for (let start = 1; start + length <= run.length; start++) {
    if (distance(run[start]!, run[start + length - 1]!) < distance(run[best]!, run[best + length - 1]!)) best = start;
  }
  return run.slice(best, best + length);
}

export interface RigFiles {
  rig: FaceRig;
  idle: Uint8Array;
  mouths: Uint8Array;
  /** Visemes whose mouth came from the footage, and those made by warping. */
  footage: Viseme[];
  warped: Viseme[];
}

function frameCanvas(frame: Frame): Canvas {
  const canvas = createCanvas(frame.width, frame.height);
  const rgba = new Uint8ClampedArray(frame.width * frame.height * 4);
  for (let i = 0, j = 0; i < frame.rgb.length; i += 3, j += 4) {
    rgba[j] = frame.rgb[i]!;
    rgba[j + 1] = frame.rgb[i + 1]!;
    rgba[j + 2] = frame.rgb[i + 2]!;
    rgba[j + 3] = 255;
  }
  canvas.getContext('2d').putImageData(new ImageData(rgba, frame.width, frame.height), 0, 0);
  return canvas;
}

/** Draws a source frame into a cell at (ox, oy): the crop, turned and moved by `motion`, filling RIG_SIZE. */
function placeFrame(ctx: SKRSContext2D, crop: RigPlan['crop'], motion: Motion, ox: number, oy: number): (x: number, y: number) => [number, number] {
  const k = (RIG_SIZE / crop.side) * motion.zoom;
  const cos = Math.cos(motion.angle);
  const sin = Math.sin(motion.angle);
  const tx = ox + RIG_SIZE / 2 + motion.dx;
  const ty = oy + RIG_SIZE / 2 + motion.dy;
  ctx.setTransform(k * cos, k * sin, -k * sin, k * cos, tx - k * (cos * crop.cx - sin * crop.cy), ty - k * (sin * crop.cx + cos * crop.cy));
  return (x, y) => [k * (cos * (x - crop.cx) - sin * (y - crop.cy)) + RIG_SIZE / 2 + motion.dx, k * (sin * (x - crop.cx) + cos * (y - crop.cy)) + RIG_SIZE / 2 + motion.dy];
}

/** The mouth of `pose` on `source`, normalised to MOUTH_WIDTH and level, centred in a mouth cell (no feathering). */
function cutMouth(source: Canvas, pose: MouthPose): ImageData {
  const cell = createCanvas(MOUTH_CELL.width, MOUTH_CELL.height);
  const ctx = cell.getContext('2d');
  const k = MOUTH_WIDTH / pose.width;
  ctx.translate(MOUTH_CELL.width / 2, MOUTH_CELL.height / 2);
  ctx.scale(k, k);
  ctx.rotate(-pose.angle);
  ctx.translate(-pose.x, -pose.y);
  ctx.drawImage(source, 0, 0);
  return ctx.getImageData(0, 0, MOUTH_CELL.width, MOUTH_CELL.height);
}

/** Alpha falls off smoothly towards an ellipse (of `size`, centred in the cell), so a patch blends into any frame. */
export function feather(image: ImageData, size: { width: number; height: number } = image): ImageData {
  const { width, height, data } = image;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = Math.hypot((x + 0.5 - width / 2) / (size.width * 0.46), (y + 0.5 - height / 2) / (size.height * 0.46));
      const a = r <= 0.55 ? 1 : r >= 1 ? 0 : 0.5 + 0.5 * Math.cos((Math.PI * (r - 0.55)) / 0.45);
      data[(y * width + x) * 4 + 3] = Math.round(data[(y * width + x) * 4 + 3]! * a);
    }
  }
  return image;
}

function sheetOf(count: number, cellWidth: number, cellHeight: number) {
  const columns = Math.min(SHEET_COLUMNS, count);
  const canvas = createCanvas(columns * cellWidth, Math.ceil(count / columns) * cellHeight);
  return { canvas, columns, at: (i: number) => cellOrigin({ columns, cellWidth, cellHeight }, i) };
}

/** Builds the rig's files; `frames` holds the decoded source frames the plan asked for, by index. */
export async function buildRig(analysis: Analysis, plan: RigPlan, frames: Map<number, Frame>): Promise<RigFiles> {
  const canvases = new Map<number, Canvas>();
  const source = (i: number) => {
    let c = canvases.get(i);
    if (!c) {
      const frame = frames.get(i);
      if (!frame) throw new Error(`frame ${i} was not decoded`);
      c = frameCanvas(frame);
      canvases.set(i, c);
    }
    return c;
  };

  const idle = sheetOf(plan.idle.length, RIG_SIZE, RIG_SIZE);
  const ctx = idle.canvas.getContext('2d');
  ctx.imageSmoothingQuality = 'high';
  const poses: MouthPose[] = [];
  const rest = restShape(analysis.samples.map((s) => s.shape));
  const blinks: number[] = [];
  plan.idle.forEach(({ sample, motion }, n) => {
    const [ox, oy] = idle.at(n);
    ctx.save();
    ctx.beginPath();
    ctx.rect(ox, oy, RIG_SIZE, RIG_SIZE);
    ctx.clip();
    ctx.fillStyle = '#000';
    ctx.fillRect(ox, oy, RIG_SIZE, RIG_SIZE);
    const toRig = placeFrame(ctx, plan.crop, motion, ox, oy);
    ctx.drawImage(source(sample.i), 0, 0);
    ctx.restore();
    const [x, y] = toRig(sample.pose.x, sample.pose.y);
    const k = (RIG_SIZE / plan.crop.side) * motion.zoom;
    const round = (v: number) => Math.round(v * 100) / 100;
    poses.push({ x: round(x), y: round(y), width: round(sample.pose.width * k), angle: round(sample.pose.angle + motion.angle) });
    if (!analysis.still && isBlink(sample.shape, rest)) blinks.push(n);
  });

  const mouths = sheetOf(VISEMES.length, MOUTH_CELL.width, MOUTH_CELL.height);
  const mctx = mouths.canvas.getContext('2d');
  const restSample = plan.footage.get('rest')!;
  const restMouth = cutMouth(source(restSample.i), restSample.pose);
  const visemes = {} as FaceRig['visemes'];
  const footage: Viseme[] = [];
  const warped: Viseme[] = [];
  VISEMES.forEach((viseme, cell) => {
    const sample = plan.footage.get(viseme);
    // A made mouth carries its own alpha (opaque over the moved jaw, the warp already still where it fades).
    const patch = sample ? feather(cutMouth(source(sample.i), sample.pose), FOOTAGE_MOUTH) : warpMouth(restMouth, viseme, MOUTH_WIDTH, restSample.lips);
    const [ox, oy] = mouths.at(cell);
    mctx.putImageData(patch, ox, oy);
    visemes[viseme] = { cell, source: sample ? 'footage' : 'warp' };
    (sample ? footage : warped).push(viseme);
  });

  const rig: FaceRig = FaceRig.parse({
    version: RIG_VERSION,
    width: RIG_SIZE,
    height: RIG_SIZE,
    fps: plan.fps,
    idle: { url: 'idle.jpg', cellWidth: RIG_SIZE, cellHeight: RIG_SIZE, columns: idle.columns, count: plan.idle.length },
    poses,
    ...(blinks.length ? { blinks } : {}),
    mouths: { sheet: { url: 'mouths.webp', cellWidth: MOUTH_CELL.width, cellHeight: MOUTH_CELL.height, columns: mouths.columns, count: VISEMES.length }, mouthWidth: MOUTH_WIDTH },
    visemes,
  });
  return {
    rig,
    idle: new Uint8Array(await idle.canvas.encode('jpeg', 80)),
    mouths: new Uint8Array(await mouths.canvas.encode('webp', 85)),
    footage,
    warped,
  };
}
