// A trained face (protocol/faces/rig.ts) drawn in the visitor's browser. A version-2 rig deforms its idle frame
// by a mesh (rig-mesh.ts); a version-1 rig is drawn here as before: its idle loop plays at the rig's
// frame rate, the mouth patch of the shape being heard is placed on each frame at that frame's mouth pose and
// blended into the next one (no popping: each mouth's jaw, and the frame's own, moved to the blended jaw before
// the images are mixed, so one chin shows, never two), and the eyes blink where the footage never does. Loaded with
// import() only when a call with a trained face starts.
//
// WebGL where the device renders it on a GPU (rig-gl.ts: the idle frame a texture, the mouths mixed in one
// shader pass at the frame's pose), canvas 2D where it has none or only in software (rig-2d.ts: one drawImage of the idle cell, then the
// mouths, in bands where a jaw moves). Both draw the same picture; `renderer` says which one a face got.
import { FaceRig, cellOrigin, type MouthPose, type Sheet } from '../../../../protocol/faces/rig.js';
import { widestOpen } from '../../../../face-drawing/mouth-interior.js';
import { VISEMES, type Viseme } from '../../../../protocol/visemes.js';
import { runFace, type FaceTimeline } from './face-track.js';
import { PresentationDelay } from './presentation.js';
import { createCanvasMouths } from './rig-2d.js';
import { createGlPainter } from './rig-gl.js';
import { createMeshFace } from './rig-mesh.js';
import { BLEND_LEAD_MS, BLEND_MS, blendTowards } from './mouth-blend.js';
import type { LoadedRig, RigFaceOptions, RigFaceTrack } from './rig-face-types.js';

export { BLEND_MS } from './mouth-blend.js';
const BLINK_MS = 150;

/** A rig that cannot be drawn: unreachable, not a rig, or images that do not decode. */
export class RigLoadError extends Error {
  override readonly name = 'RigLoadError';
}

export type { LoadedRig, RigFaceOptions, RigFaceTrack } from './rig-face-types.js';

/** Loads rig.json and the two sheets it names (relative to it). */
export async function loadRig(url: string, fetcher: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<LoadedRig> {
  const get = async (target: string): Promise<Response> => {
    const response = await fetcher(target).catch(() => null);
    if (!response?.ok)
      throw new RigLoadError(
        `The face's rig could not be loaded (${response ? `HTTP ${response.status}` : 'network error'} for ${target}).`,
      );
    return response;
  };
  const body: unknown = await (await get(url)).json().catch(() => undefined);
  const parsed = FaceRig.safeParse(body);
  if (!parsed.success) throw new RigLoadError("The face's rig.json is not a rig this page can draw.");
  const rig = parsed.data;
  if (rig.poses.length !== rig.idle.count) throw new RigLoadError("The face's rig has a mouth pose for some idle frames only.");
  if (VISEMES.some((v) => rig.visemes[v].cell >= rig.mouths.sheet.count))
    throw new RigLoadError("The face's rig names a mouth the mouth sheet does not have.");
  if (rig.mesh && !meshFits(rig)) throw new RigLoadError("The face's rig has a mesh that does not fit its frames.");
  const image = async (sheet: Sheet): Promise<ImageBitmap> => {
    const blob = await (await get(new URL(sheet.url, new URL(url, location.href)).href)).blob();
    // Premultiplied, as WebGL blends it (WebGL ignores its own unpack flags for an ImageBitmap).
    const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'premultiply' }).catch(() => null);
    if (!bitmap) throw new RigLoadError(`The face's image ${sheet.url} does not decode.`);
    const rows = Math.ceil(sheet.count / sheet.columns);
    if (bitmap.width < sheet.columns * sheet.cellWidth || bitmap.height < rows * sheet.cellHeight)
      throw new RigLoadError(`The face's image ${sheet.url} is smaller than its cells.`);
    return bitmap;
  };
  const [idle, mouths] = await Promise.all([image(rig.idle), image(rig.mouths.sheet)]);
  return { rig, idle, mouths };
}

/** Loads the rig at `url` and draws it as a live video track; rejects with a RigLoadError. */
export async function createRigFace(url: string, timeline: FaceTimeline, options: RigFaceOptions = {}): Promise<RigFaceTrack> {
  return createRigFaceTrack(await loadRig(url, options.fetch), timeline, options);
}

export function createRigFaceTrack(loaded: LoadedRig, timeline: FaceTimeline, options: RigFaceOptions = {}): RigFaceTrack {
  // Version 2: the idle frame deformed by its mesh (rig-mesh.ts); version 1: mouth patches over it (below).
  if (loaded.rig.mesh) return createMeshFace(loaded, timeline, options);
  const { rig, idle, mouths } = loaded;
  const canvas = document.createElement('canvas');
  canvas.width = rig.width;
  canvas.height = rig.height;
  const webgl = options.webgl ?? 'auto';
  const gl = webgl === 'never' ? null : createGlPainter(canvas, rig, idle, mouths, webgl === 'any');
  // A canvas that gave a WebGL context cannot give a 2D one: the 2D path draws on a fresh canvas.
  const surface = gl ? canvas : Object.assign(document.createElement('canvas'), { width: rig.width, height: rig.height });
  const context = gl ? null : surface.getContext('2d')!;
  const mouths2d = gl ? null : createCanvasMouths(rig, idle, mouths);
  const clock = options.clock ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const reducedMotion = options.reducedMotion ?? globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const ownBlinks = !rig.blinks?.length && !reducedMotion;
  // Drawn at the rig's rate, but at least 25 times a second so the mouth keeps up with the voice.
  const frameMs = 1000 / Math.min(30, Math.max(25, rig.fps));
  const started = clock();
  const presentation = options.presentation ?? new PresentationDelay();
  let last = started;
  /** How much of each mouth shape shows; the rest is the idle frame's own (resting) mouth. */
  const weights = new Map<Viseme, number>([['rest', 1]]);
  let nextBlink = started + 1500 + random() * 2500;

  /** Idle frame `frame` with the mouths mixed by `mix` (blinks aside). */
  const paint = (frame: number, mix: ReadonlyMap<Viseme, number>) => {
    if (gl) return gl.draw(frame, mix);
    const [ix, iy] = cellOrigin(rig.idle, frame);
    context!.setTransform(1, 0, 0, 1, 0, 0);
    context!.globalAlpha = 1;
    context!.drawImage(idle, ix, iy, rig.idle.cellWidth, rig.idle.cellHeight, 0, 0, rig.width, rig.height);
    mouths2d!.draw(context!, frame, rig.poses[frame]!, mix);
    context!.globalAlpha = 1;
  };

  const draw = () => {
    const now = clock();
    const step = Math.max(0, now - last) / BLEND_MS;
    last = now;
    // Ask for the shape the visitor will hear when this frame reaches the screen (the player adds half a frame,
    // MOUTH_LEAD_S, for the frames' phase), a little early, and blend it in from this frame on: its first frame
    // shows it more than half way.
    const aheadMs = presentation.ms + BLEND_LEAD_MS;
    presentation.drawn(now);
    blendTowards(weights, timeline.visemeNow(aheadMs), step);

    const frame = Math.floor(((now - started) / 1000) * rig.fps) % rig.idle.count;
    const pose = rig.poses[frame]!;
    paint(frame, weights);
    if (ownBlinks) {
      if (now > nextBlink + BLINK_MS) nextBlink = now + 2500 + random() * 4000;
      if (now >= nextBlink) blink(frame, pose);
    }
    if (context) context.globalAlpha = 1;
    timeline.drawn?.(performance.now() + aheadMs);
  };

  /**
   * Footage that never blinks gets blinks drawn: each eye (placed from the mouth's pose by a face's usual
   * proportions) is covered by the skin just above it, stretched down like a closing lid.
   */
  const blink = (frame: number, pose: MouthPose) => {
    const w = pose.width;
    const [cos, sin] = [Math.cos(pose.angle), Math.sin(pose.angle)];
    context?.setTransform(cos, sin, -sin, cos, pose.x, pose.y);
    for (const side of [-1, 1]) {
      // In the face's own axes, from the mouth's centre: an eye about 0.65 mouth widths aside and 1.25 up.
      const [eyeX, eyeY, eyeW, eyeH] = [side * 0.65 * w, -1.25 * w, 0.75 * w, 0.3 * w];
      // The skin above the eye, read from the canvas as drawn so far (unrotated: a lid is even enough for that).
      const skinX = pose.x + cos * eyeX - sin * (eyeY - eyeH);
      const skinY = pose.y + sin * eyeX + cos * (eyeY - eyeH);
      const source: [number, number, number, number] = [skinX - eyeW / 2, skinY - eyeH / 3, eyeW, (eyeH * 2) / 3];
      const target: [number, number, number, number] = [eyeX - eyeW / 2, eyeY - eyeH * 0.9, eyeW, eyeH * 1.5];
      if (gl) gl.lid(frame, source, [cos, sin, -sin, cos, pose.x, pose.y], target);
      else context!.drawImage(surface, ...source, ...target);
    }
  };

  // A frame with the widest-open mouth half blended in, drawn over at once: what a mouth needs the first time
  // (the 2D path's scratch canvases and mask, the mouth sheet's first use, WebGL's mouth pass) is made before
  // the face is shown, not at the greeting's first word. Made then, Chromium's trained face showed that word's
  // mouth 80-120 ms after its sound in a CI run (test/realtime/e2e/lip-sync-chromium.test.ts) and the later
  // turns' on time.
  paint(
    0,
    new Map([
      ['rest', 0.5],
      [widestOpen(), 0.5],
    ]),
  );
  const release = () => {
    gl?.release();
    idle.close();
    mouths.close();
  };
  return { ...runFace(surface, frameMs, draw, presentation, release), renderer: gl ? 'webgl' : '2d' };
}

/** Whether a version-2 rig's mesh is whole: a frame of points per idle frame, every index within them. */
function meshFits(rig: FaceRig): boolean {
  const mesh = rig.mesh!;
  const n = mesh.head.length;
  const within = (list: number[]) => list.every((i) => i < n);
  return (
    mesh.frames.length === rig.idle.count &&
    mesh.frames.every((f) => f.length === 2 * n) &&
    Object.values(mesh.shapes).every((s) => s.length === 2 * n) &&
    mesh.triangles.length % 3 === 0 &&
    within(mesh.triangles) &&
    within(mesh.ring) &&
    within(mesh.hole) &&
    mesh.upper < n &&
    mesh.lower < n &&
    rig.mouths.sheet.count >= 3
  );
}
