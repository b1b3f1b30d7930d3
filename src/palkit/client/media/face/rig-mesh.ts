// A version-2 trained face (face-drawing/mesh.ts) drawn in the visitor's browser: the idle loop deformed by
// its mesh — the mouth shapes heard blended into the jaw, lips and teeth (one linear mix of blend shapes: one
// chin at every moment), the eyelids closing every few seconds where the footage does not blink, and a photo's
// head swaying, nodding with the speech and breathing while its background holds still. WebGL where the page
// has a GPU (rig-gl-mesh.ts), canvas 2D otherwise (face-drawing/mesh-paint.ts); both draw the same triangles.
import { paintMeshFrame } from '../../../../face-drawing/mesh-paint.js';
import { Blinks, channelsOf, idleFrameAt, livingHead, type Channels, type HeadMotion } from '../../../../face-drawing/mesh.js';
import { widestOpen } from '../../../../face-drawing/mouth-interior.js';
import type { Viseme } from '../../../../protocol/visemes.js';
import { runFace, type FaceTimeline } from './face-track.js';
import { PresentationDelay } from './presentation.js';
import { createGlMeshPainter } from './rig-gl-mesh.js';
import { BLEND_LEAD_MS, BLEND_MS, blendTowards } from './mouth-blend.js';
import type { LoadedRig, RigFaceOptions, RigFaceTrack } from './rig-face-types.js';

/** How fast the head's nod follows the jaw (per ms): a slow echo of the speech, not each syllable. */
const NOD_FOLLOW = 1 / 400;

export function createMeshFace({ rig, idle, mouths }: LoadedRig, timeline: FaceTimeline, options: RigFaceOptions = {}): RigFaceTrack {
  const canvas = document.createElement('canvas');
  canvas.width = rig.width;
  canvas.height = rig.height;
  const webgl = options.webgl ?? 'auto';
  const gl = webgl === 'never' ? null : createGlMeshPainter(canvas, rig, idle, mouths, webgl === 'any');
  // A canvas that gave a WebGL context cannot give a 2D one: the 2D path draws on a fresh canvas.
  const surface = gl ? canvas : Object.assign(document.createElement('canvas'), { width: rig.width, height: rig.height });
  // Read back each frame under the moved triangles (face-drawing/mesh-raster.ts): a software canvas.
  const context = gl ? null : surface.getContext('2d', { willReadFrequently: true })!;
  const clock = options.clock ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const reducedMotion = options.reducedMotion ?? globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const frameMs = 1000 / Math.min(30, Math.max(25, rig.fps));
  const started = clock();
  const presentation = options.presentation ?? new PresentationDelay();
  const blinks = !rig.blinks?.length && !reducedMotion ? new Blinks(random, started) : null;
  const living = rig.mesh!.motion === 'generated' && !reducedMotion;
  let last = started;
  let nod = 0;
  const weights = new Map<Viseme, number>([['rest', 1]]);
  const paint = (frame: number, channels: Channels, head: HeadMotion | undefined) => {
    if (gl) gl.draw(frame, channels, head);
    else paintMeshFrame(context!, rig, idle, mouths, frame, channels, head);
  };

  const draw = () => {
    const now = clock();
    const elapsed = Math.max(0, now - last);
    const step = elapsed / BLEND_MS;
    last = now;
    const aheadMs = presentation.ms + BLEND_LEAD_MS;
    presentation.drawn(now);
    blendTowards(weights, timeline.visemeNow(aheadMs), step);
    const channels = channelsOf(weights);
    const closure = blinks?.closure(now) ?? 0;
    channels.blinkL = channels.blinkR = closure;
    nod += (channels.jaw - nod) * Math.min(1, elapsed * NOD_FOLLOW);
    const head: HeadMotion | undefined = living ? livingHead(now - started, nod, rig.width) : undefined;
    const frame = idleFrameAt(rig, now - started);
    paint(frame, channels, head);
    timeline.drawn?.(performance.now() + aheadMs);
  };

  // The widest-open mouth with the eyes shut, painted once and drawn over at once: what a moving mouth and lid
  // need the first time (the 2D path's first read-back and triangles, the mouth sheet's first use, WebGL's
  // passes) is made before the face is shown, not at the greeting's first word.
  paint(0, { ...channelsOf(new Map([[widestOpen(), 1]])), blinkL: 1, blinkR: 1 }, living ? livingHead(0, 1, rig.width) : undefined);
  const release = () => {
    gl?.release();
    idle.close();
    mouths.close();
  };
  return { ...runFace(surface, frameMs, draw, presentation, release), renderer: gl ? 'webgl' : '2d' };
}
