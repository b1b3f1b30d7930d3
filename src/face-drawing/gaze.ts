// Where a photo face looks (issue 51: "small gaze shifts"): mostly at the visitor, now and then a little aside
// for a second or two, as a person's eyes do while they speak. The mesh has no point inside the eye (FaceMesh's
// 468 stop at the lids), so a look aside slides the eye's texture between its corners by a pixel or two
// (mesh.ts meshFrame): the iris moves, the corners stay.
import type { RigMesh } from '../protocol/faces/rig.js';

/** A look lasts one slot; each slot's change comes at a random moment in its first half and takes SACCADE_MS. */
const SLOT_MS = 2600;
const SACCADE_MS = 40;
/** The widest look aside, in frame pixels of a 512-pixel face (an iris is about 12 across). */
const REACH = 2;

/** A repeatable number in [0, 1) for slot k (its own, so that a generated video's looks are the same every render). */
function hash(k: number): number {
  let t = Math.imul(k ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  t = Math.imul(t ^ (t >>> 13), 0xc2b2ae35) >>> 0;
  return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
}

/** Slot k's look (frame pixels): at the visitor half of the time, else a little aside, rarely up or down. */
function lookOf(k: number, px: number): [number, number] {
  if (k <= 0 || hash(3 * k) < 0.5) return [0, 0];
  const side = hash(3 * k + 1) < 0.5 ? -1 : 1;
  return [side * REACH * px * (0.6 + 0.4 * hash(3 * k + 2)), REACH * px * 0.3 * (hash(7 * k) - 0.5)];
}

/** Where the eyes look at `ms` (a shift of their texture, frame pixels) on a face `scale` pixels across. */
export function gazeAt(ms: number, scale: number): [number, number] {
  const px = scale / 512;
  const k = Math.floor(Math.max(0, ms) / SLOT_MS);
  const change = k * SLOT_MS + 0.5 * SLOT_MS * hash(5 * k + 4);
  const [from, to] = [lookOf(k - 1, px), lookOf(k, px)];
  const t = Math.max(0, Math.min(1, (ms - change) / SACCADE_MS));
  return [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t];
}

const shares = new WeakMap<RigMesh, Float32Array>();

/**
 * How much of a look each point's texture takes: the lids' points (those a blink moves by a tenth or more of the
 * most it moves any) fully, the rest none; learnt from the rig's blink shapes.
 */
export function eyeShares(mesh: RigMesh): Float32Array {
  let out = shares.get(mesh);
  if (out) return out;
  const n = mesh.head.length;
  out = new Float32Array(n);
  for (const shape of [mesh.shapes.blinkL, mesh.shapes.blinkR]) {
    let most = 0;
    const size = (i: number) => Math.hypot(shape[2 * i]!, shape[2 * i + 1]!);
    for (let i = 0; i < n; i++) most = Math.max(most, size(i));
    if (most > 0) for (let i = 0; i < n; i++) if (size(i) >= 0.1 * most) out[i] = 1;
  }
  shares.set(mesh, out);
  return out;
}
