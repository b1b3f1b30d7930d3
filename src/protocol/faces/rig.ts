// A trained face's rig: what the service learns from a customer's clip or photo, and what the elements
// (and the service, for generated videos) draw from it. The rig is a few files under one base URL:
// `rig.json` (this shape) beside the images it names, served with cache headers.
//
// Drawing one frame: take idle frame `i` (a cell of the idle sheet), then over it the mouth patch of the
// current viseme (a cell of the mouth sheet, its alpha feathered at the edges), placed by frame i's
// `mouth` pose: the patch's centre on (x, y), turned by `angle`, scaled so that its `mouth.width` pixels
// span the frame's mouth width. Between two visemes the two patches are blended.
//
// Version 2 draws no patches: `mesh` (src/face-drawing/mesh.ts) deforms the idle frame itself — the jaw carries chin, lower lip
// and lower teeth, the lids close over the eyes, a photo's head moves while its background holds still — and
// the mouth sheet holds the mouth's inside (cell 0 the throat, 1 the upper teeth, 2 the lower teeth and
// tongue), drawn in the opening. Its `visemes` all name cell 0, made ('warp'). Version-1 rigs are still drawn.
import * as z from 'zod/mini';
import { VISEMES } from '../visemes.js';

export const RIG_VERSION = 2;

/** The blend shapes a version-2 rig's mesh moves by (face-drawing/mesh.ts VISEME_CHANNELS). */
export const MESH_CHANNELS = ['jaw', 'wide', 'round', 'press', 'tuck', 'lift', 'blinkL', 'blinkR'] as const;
export type MeshChannel = (typeof MESH_CHANNELS)[number];

/** Where the mouth sits on one idle frame, in that frame's pixels. */
export const MouthPose = z.object({
  /** Centre of the mouth (between the lip corners, midway between the lips). */
  x: z.number(),
  y: z.number(),
  /** Distance between the lip corners. */
  width: z.number().check(z.positive()),
  /** The head's roll, radians, clockwise positive (image coordinates). */
  angle: z.number(),
});
export type MouthPose = z.infer<typeof MouthPose>;

/** A sheet of equal cells, left to right, then top to bottom. */
export const Sheet = z.object({
  /** Relative to rig.json (JPEG for the idle sheet, PNG or WebP with alpha for the mouths). */
  url: z.string(),
  cellWidth: z.int().check(z.positive()),
  cellHeight: z.int().check(z.positive()),
  columns: z.int().check(z.positive()),
  count: z.int().check(z.positive()),
});
export type Sheet = z.infer<typeof Sheet>;

export const MouthCell = z.object({
  /** Index in the mouth sheet. */
  cell: z.int().check(z.nonnegative()),
  /** From the clip's own frames, or made by warping the resting mouth (a photo, or a viseme the clip lacks). */
  source: z.enum(['footage', 'warp']),
});
export type MouthCell = z.infer<typeof MouthCell>;

/** A version-2 rig's triangle mesh over the face (face-drawing/mesh.ts). */
export const RigMesh = z.object({
  /** Point indexes, three per triangle (the mouth's opening is left out). */
  triangles: z.array(z.int().check(z.nonnegative())),
  /** Each idle frame's points, x and y in turn, in frame pixels. */
  frames: z.array(z.array(z.number())),
  /** Each blend shape's move of every point at full strength (dx, dy in turn), in mouth widths along the mouth's axes. */
  shapes: z.record(z.enum(MESH_CHANNELS), z.array(z.number())),
  /** How much each point follows the head's own motion (1 on the head, 0 on the frame's edge). */
  head: z.array(z.number()),
  /** The head's outline (points whose head share is 1), in order. */
  ring: z.array(z.int().check(z.nonnegative())),
  /** The mouth's opening between the inner lips, in order. */
  hole: z.array(z.int().check(z.nonnegative())),
  /** Where the upper teeth hang (the upper lip's middle) and the lower stand (the lower lip's middle). */
  upper: z.int().check(z.nonnegative()),
  lower: z.int().check(z.nonnegative()),
  /** 'generated': the head's life is drawn (a photo); 'footage': the idle loop has its own. */
  motion: z.enum(['footage', 'generated']),
});
export type RigMesh = z.infer<typeof RigMesh>;

export const FaceRig = z.object({
  /** 1: mouth patches over the idle frames; 2: the idle frame deformed by `mesh`. */
  version: z.union([z.literal(1), z.literal(RIG_VERSION)]),
  /** Size of an idle frame as drawn (the track's size). */
  width: z.int().check(z.positive()),
  height: z.int().check(z.positive()),
  /** Frames per second of the idle loop. */
  fps: z.number().check(z.positive()),
  /** The idle loop, one cell per frame, played in order and looped without a seam. */
  idle: Sheet,
  /** One pose per idle frame (same length as idle.count). */
  poses: z.array(MouthPose),
  /** Idle frames whose eyes are closed, if the footage blinks; a rig without any may draw its own blinks. */
  blinks: z.optional(z.array(z.int().check(z.nonnegative()))),
  /** The mouth sheet: each cell a mouth patch centred in its cell, `mouthWidth` pixels between the lip corners. */
  mouths: z.object({ sheet: Sheet, mouthWidth: z.number().check(z.positive()) }),
  /** A mouth for every viseme. */
  visemes: z.record(z.enum(VISEMES), MouthCell),
  /** Version 2: the mesh the idle frame is deformed by. */
  mesh: z.optional(RigMesh),
});
export type FaceRig = z.infer<typeof FaceRig>;

/** Where cell `index` of a sheet starts, in the sheet's pixels (left to right, then top to bottom). */
export function cellOrigin(sheet: Pick<Sheet, 'columns' | 'cellWidth' | 'cellHeight'>, index: number): [number, number] {
  return [(index % sheet.columns) * sheet.cellWidth, Math.floor(index / sheet.columns) * sheet.cellHeight];
}

/**
 * The canvas transform (setTransform's a–f) that puts a mouth patch, drawn centred on the origin, at a
 * frame's pose: turned by its roll and scaled so that the sheet's `mouthWidth` spans the pose's width.
 */
export function mouthTransform(pose: MouthPose, mouthWidth: number): [number, number, number, number, number, number] {
  const scale = pose.width / mouthWidth;
  const [cos, sin] = [scale * Math.cos(pose.angle), scale * Math.sin(pose.angle)];
  return [cos, sin, -sin, cos, pose.x, pose.y];
}
