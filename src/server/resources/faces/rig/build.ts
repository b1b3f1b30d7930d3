// Step "build the rig": from the analysed clip (or photo) and its frames, a version-2 rig (protocol/faces/
// mesh.ts): the idle sheet (JPEG; one still frame for a photo, whose head the renderer moves), a pose and the
// landmark mesh of every idle frame, the blend shapes that deform it (mesh-shapes.ts), and the mouth sheet
// holding the mouth's inside (mouth-inside.ts). Drawn with @napi-rs/canvas (Skia, prebuilt in its npm
// package: no system libraries, no build step). warp.ts's patches are the version-1 rigs' mouths.
import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { FaceRig, RIG_VERSION, cellOrigin, type MouthPose } from '../../../../protocol/faces/rig.js';
import { INSIDE } from '../../../../face-drawing/mesh.js';
import { VISEMES, type Viseme } from '../../../../protocol/visemes.js';
import { idleFrames, type Analysis, type Sample } from './analysis.js';
import type { Frame } from './landmarks.js';
import { snapLipsToTeeth, takeCornerShadows } from './lip-edge.js';
import { meshModel, meshPoints } from './mesh-shapes.js';
import { isBlink, restShape } from './mouth.js';
import { mouthInside } from './mouth-inside.js';

/** Side of an idle frame as drawn. */
export const RIG_SIZE = 512;
const SHEET_COLUMNS = 8;
/** Version-1 mouth cells (warp.ts): the patch is centred, its lip corners MOUTH_WIDTH apart; room below for the chin a made viseme moves with the jaw. */
export const MOUTH_CELL = { width: 224, height: 256 };
export const MOUTH_WIDTH = 84;
/** A photo's idle frame is drawn at this rate. */
const PHOTO_IDLE_FPS = 10;

/**
 * The square crop: this many face sizes across, its centre this many above the face box's centre; where that
 * passes the picture's edge, it is moved (up to `shift` face sizes) and tightened (down to `tightest` face sizes)
 * to stay inside, as a webcam framed closer would be, rather than showing a blurred fill there.
 */
const FRAMING = { side: 2.4, above: 0.12, shift: 0.3, tightest: 1.9 };

/** How one idle frame is made from a source frame: a turn, a shift (rig pixels) and a zoom about the crop's centre. */
interface Motion {
  angle: number;
  dx: number;
  dy: number;
  zoom: number;
}
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
  // A photo: one still frame, the renderer moves the head on it, the background holding still (mesh.ts livingHead).
  const fps = analysis.still ? PHOTO_IDLE_FPS : analysis.fps;
  const idle: RigPlan['idle'] = idleFrames(analysis).map((sample) => ({ sample, motion: STILL }));
  const boxes = idle.map((f) => f.sample.box);
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const size = median(boxes.map((b) => Math.max(b[2], b[3])));
  // Framed on the face as a video call is (the eyes a little above the middle), so the stage's cover crop at
  // 16:9, 1:1 or 9:16 keeps the face whole; where the crop passes the picture's edge a blurred fill shows.
  const cx = median(boxes.map((b) => b[0] + b[2] / 2));
  const cy = median(boxes.map((b) => b[1] + b[3] / 2)) - FRAMING.above * size;
  const crop = fitCrop({ cx, cy, side: size * FRAMING.side }, size, analysis);
  // Every mouth is the idle frame deformed; the resting one is the first idle frame's.
  const footage = new Map<Viseme, Sample>([['rest', idle[0]!.sample]]);
  const frames = [...new Set([...idle.map((f) => f.sample.i), ...[...footage.values()].map((s) => s.i)])].sort((a, b) => a - b);
  return { frames, crop, idle, fps, footage };
}

/**
 * The widest crop, from `ideal`'s side down to FRAMING.tightest face sizes, that fits the picture with its centre
 * moved at most FRAMING.shift face sizes each way; if none fits, the tightest, moved as far as allowed towards
 * fitting (the fill shows the rest).
 */
export function fitCrop(ideal: RigPlan['crop'], size: number, picture: { width: number; height: number }): RigPlan['crop'] {
  const reach = FRAMING.shift * size;
  /** The centre on one axis nearest the ideal that keeps a crop of `side` within `length` (moved at most `reach`). */
  const place = (c: number, side: number, length: number): [number, boolean] => {
    const [lo, hi] = [side / 2, length - side / 2];
    const want = lo > hi ? length / 2 : Math.min(hi, Math.max(lo, c));
    const moved = Math.max(-reach, Math.min(reach, want - c));
    return [c + moved, lo <= hi && Math.abs(want - c) <= reach];
  };
  const tightest = Math.min(ideal.side, FRAMING.tightest * size);
  for (let side = ideal.side; side >= tightest - 1e-9; side -= Math.max(1, ideal.side / 200)) {
    const [[cx, fitsX], [cy, fitsY]] = [place(ideal.cx, side, picture.width), place(ideal.cy, side, picture.height)];
    if (fitsX && fitsY) return { cx, cy, side };
  }
  return { cx: place(ideal.cx, tightest, picture.width)[0], cy: place(ideal.cy, tightest, picture.height)[0], side: tightest };
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
function placeFrame(
  ctx: SKRSContext2D,
  crop: RigPlan['crop'],
  motion: Motion,
  ox: number,
  oy: number,
): (x: number, y: number) => [number, number] {
  const k = (RIG_SIZE / crop.side) * motion.zoom;
  const cos = Math.cos(motion.angle);
  const sin = Math.sin(motion.angle);
  const tx = ox + RIG_SIZE / 2 + motion.dx;
  const ty = oy + RIG_SIZE / 2 + motion.dy;
  ctx.setTransform(k * cos, k * sin, -k * sin, k * cos, tx - k * (cos * crop.cx - sin * crop.cy), ty - k * (sin * crop.cx + cos * crop.cy));
  return (x, y) => [
    k * (cos * (x - crop.cx) - sin * (y - crop.cy)) + RIG_SIZE / 2 + motion.dx,
    k * (sin * (x - crop.cx) + cos * (y - crop.cy)) + RIG_SIZE / 2 + motion.dy,
  ];
}

/** Whether the crop reaches past the picture. */
function passesEdge(crop: RigPlan['crop'], frame: Frame): boolean {
  const half = crop.side / 2;
  return crop.cx - half < 0 || crop.cy - half < 0 || crop.cx + half > frame.width || crop.cy + half > frame.height;
}

/**
 * What shows where the crop passes the picture's edge: the picture's edge rows and columns drawn outwards (the
 * wall or sky beside it carried on), blurred. Drawn under the picture, by the same placement.
 */
function edgeFill(ctx: SKRSContext2D, source: Canvas, pad: number): void {
  // At a quarter of the size: blurred anyway, and a clip draws one per idle frame.
  const q = 4;
  const [w, h, p0] = [Math.ceil(source.width / q), Math.ceil(source.height / q), Math.ceil(pad / q)];
  const padded = createCanvas(w + 2 * p0, h + 2 * p0);
  const p = padded.getContext('2d');
  p.drawImage(source, p0, p0, w, h);
  p.drawImage(padded, p0, p0, w, 1, p0, 0, w, p0);
  p.drawImage(padded, p0, p0 + h - 1, w, 1, p0, p0 + h, w, p0);
  p.drawImage(padded, p0, 0, 1, h + 2 * p0, 0, 0, p0, h + 2 * p0);
  p.drawImage(padded, p0 + w - 1, 0, 1, h + 2 * p0, p0 + w, 0, p0, h + 2 * p0);
  ctx.save();
  ctx.filter = `blur(${Math.max(4, Math.round(pad / 20))}px)`;
  ctx.drawImage(padded, -p0 * q, -p0 * q, padded.width * q, padded.height * q);
  ctx.restore();
}

/** The picture with its edge faded over a few pixels, so it meets the fill beyond it without a line. */
function featheredOf(source: Canvas): Canvas {
  const [w, h] = [source.width, source.height];
  const out = createCanvas(w, h);
  const o = out.getContext('2d');
  o.drawImage(source, 0, 0);
  const image = o.getImageData(0, 0, w, h);
  const ramp = Math.max(4, Math.round(Math.max(w, h) / 60));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = Math.min(x, y, w - 1 - x, h - 1 - y);
      if (d >= ramp) continue;
      const t = (d + 0.5) / ramp;
      image.data[(y * w + x) * 4 + 3] = Math.round(255 * t * t * (3 - 2 * t));
    }
  }
  o.putImageData(image, 0, 0);
  return out;
}

function sheetOf(count: number, cellWidth: number, cellHeight: number) {
  const columns = Math.min(SHEET_COLUMNS, count);
  const canvas = createCanvas(columns * cellWidth, Math.ceil(count / columns) * cellHeight);
  return { canvas, columns, at: (i: number) => cellOrigin({ columns, cellWidth, cellHeight }, i) };
}

/** FaceMesh's points on a source frame (analysed pixels), by frame index. */
export type Landmarks = Map<number, Array<[number, number]>>;

/** Builds the rig's files; `frames` holds the decoded source frames the plan asked for, `landmarks` their meshes. */
export async function buildRig(analysis: Analysis, plan: RigPlan, frames: Map<number, Frame>, landmarks: Landmarks): Promise<RigFiles> {
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
  const meshFrames: Array<Array<[number, number]>> = [];
  const round = (v: number) => Math.round(v * 100) / 100;
  plan.idle.forEach(({ sample, motion }, n) => {
    const [ox, oy] = idle.at(n);
    ctx.save();
    ctx.beginPath();
    ctx.rect(ox, oy, RIG_SIZE, RIG_SIZE);
    ctx.clip();
    ctx.fillStyle = '#000';
    ctx.fillRect(ox, oy, RIG_SIZE, RIG_SIZE);
    const toRig = placeFrame(ctx, plan.crop, motion, ox, oy);
    const past = passesEdge(plan.crop, frames.get(sample.i)!);
    if (past) edgeFill(ctx, source(sample.i), Math.ceil(plan.crop.side));
    ctx.drawImage(past ? featheredOf(source(sample.i)) : source(sample.i), 0, 0);
    ctx.restore();
    const [x, y] = toRig(sample.pose.x, sample.pose.y);
    const k = (RIG_SIZE / plan.crop.side) * motion.zoom;
    const pose = { x: round(x), y: round(y), width: round(sample.pose.width * k), angle: round(sample.pose.angle + motion.angle) };
    poses.push(pose);
    if (!analysis.still && isBlink(sample.shape, rest)) blinks.push(n);
    const found = landmarks.get(sample.i);
    meshFrames.push(found ? found.map(([px, py]) => toRig(px, py)) : movedMesh(meshFrames[0], poses[0], pose));
  });
  if (!meshFrames[0]) throw new Error("the resting frame's landmarks are missing");

  meshFrames.forEach((mesh, n) => {
    const [ox, oy] = idle.at(n);
    const rgba = ctx.getImageData(ox, oy, RIG_SIZE, RIG_SIZE).data;
    snapLipsToTeeth(mesh, poses[n]!, rgba, RIG_SIZE, RIG_SIZE);
    // Only a clip's (blurred) frames: on a still photo FaceMesh's corners sit right, and moving them there read
    // the photo face's chin dropping less (face-look (c) slope 0.45 in a Chromium row, 1.07 before).
    if (!analysis.still) takeCornerShadows(mesh, poses[n]!, rgba, RIG_SIZE, RIG_SIZE);
  });
  const points = meshFrames.map((m) => meshPoints(m, { width: RIG_SIZE, height: RIG_SIZE }));
  const { mesh, restHole } = meshModel(points[0]!, poses[0]!);
  const restRgba = ctx.getImageData(0, 0, RIG_SIZE, RIG_SIZE).data;
  const landmarks0 = meshFrames[0];
  const { image: insideImage } = mouthInside({
    rgba: restRgba,
    width: RIG_SIZE,
    height: RIG_SIZE,
    pose: poses[0]!,
    hole: restHole,
    upper: landmarks0[mesh.upper]!,
    lower: landmarks0[mesh.lower]!,
    cheeks: [landmarks0[205]!, landmarks0[425]!],
  });
  const inside = createCanvas(insideImage.width, insideImage.height);
  inside.getContext('2d').putImageData(insideImage, 0, 0);

  const rig: FaceRig = FaceRig.parse({
    version: RIG_VERSION,
    width: RIG_SIZE,
    height: RIG_SIZE,
    fps: plan.fps,
    idle: { url: 'idle.jpg', cellWidth: RIG_SIZE, cellHeight: RIG_SIZE, columns: idle.columns, count: plan.idle.length },
    poses,
    ...(blinks.length ? { blinks } : {}),
    mouths: {
      sheet: { url: 'mouths.webp', cellWidth: INSIDE.width, cellHeight: INSIDE.height, columns: 3, count: 3 },
      mouthWidth: MOUTH_WIDTH,
    },
    visemes: Object.fromEntries(VISEMES.map((v) => [v, { cell: 0, source: 'warp' }])),
    mesh: {
      ...mesh,
      frames: points.map((frame) => frame.flatMap(([px, py]) => [Math.round(px * 10) / 10, Math.round(py * 10) / 10])),
      motion: analysis.still ? 'generated' : 'footage',
    },
  });
  return {
    rig,
    idle: new Uint8Array(await idle.canvas.encode('jpeg', 82)),
    mouths: new Uint8Array(await inside.encode('webp', 90)),
    // Rest is the footage's own mouth; every other is the mesh deformed.
    footage: ['rest'],
    warped: VISEMES.filter((v) => v !== 'rest'),
  };
}

/** A frame whose landmarks were not found: the resting frame's, moved by the change of mouth pose. */
function movedMesh(mesh: Array<[number, number]> | undefined, from: MouthPose | undefined, to: MouthPose): Array<[number, number]> {
  if (!mesh || !from) throw new Error("the resting frame's landmarks are missing");
  const k = to.width / from.width;
  const [cos, sin] = [k * Math.cos(to.angle - from.angle), k * Math.sin(to.angle - from.angle)];
  return mesh.map(([x, y]) => [to.x + cos * (x - from.x) - sin * (y - from.y), to.y + sin * (x - from.x) + cos * (y - from.y)]);
}
