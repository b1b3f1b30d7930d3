// The two learning steps of face training, over a clip or photo on disk: find the face (landmarks on
// frames sampled at ANALYSIS_FPS, checked), then build the rig from the frames that analysis chose.
// The service runs them in the face trainer's process (trainer-process.ts); the benchmark calls them directly.
import type { Viseme } from '../../../../protocol/visemes.js';
import { FaceAnalysis, type Analysis } from './analysis.js';
import { buildRig, planRig, type Landmarks, type RigFiles } from './build.js';
import { decodeFrames } from './decode.js';
import { withFaceFinder, type FoundFace, type Frame } from './landmarks.js';

/** Landmarks per second of clip: enough for mouth shapes and a smooth idle loop, cheap enough for ≤ 1× the clip's length. */
export const ANALYSIS_FPS = 10;
/** Only the start of a long clip is used. */
export const MAX_CLIP_SECONDS = 30;
/** Frames are analysed at most this large (a face of 96 px or more in any clip stays well above the detector's limit). */
const MAX_SIDE = 640;

/** `onFrame`: called after each frame is handled (the trainer reports it is alive). */
export async function analyseFace(
  ffmpeg: string,
  path: string,
  options: { still: boolean; sourceSide?: number; onFrame?: () => void },
): Promise<Analysis> {
  const collector = new FaceAnalysis();
  await withFaceFinder((findFaces) =>
    decodeFrames(
      ffmpeg,
      path,
      { fps: ANALYSIS_FPS, maxSide: MAX_SIDE, seconds: MAX_CLIP_SECONDS, still: options.still },
      async (frame, index) => {
        collector.add(frame, index, await findFaces(frame));
        options.onFrame?.();
      },
    ),
  );
  return collector.finish({ fps: ANALYSIS_FPS, still: options.still, ...(options.sourceSide ? { sourceSide: options.sourceSide } : {}) });
}

export async function makeRig(ffmpeg: string, path: string, analysis: Analysis, options: { onFrame?: () => void } = {}): Promise<RigFiles> {
  const plan = planRig(analysis);
  const wanted = new Set(plan.frames);
  const last = plan.frames[plan.frames.length - 1] ?? 0;
  const frames = new Map<number, Frame>();
  // The same sampling as the analysis, so frame indexes match; decoding stops after the last one needed.
  const landmarks: Landmarks = new Map();
  // The idle frames' landmarks (the mesh the renderer deforms), kept by the analysis; found again only for an
  // analysis stored before it kept them.
  for (const s of analysis.samples)
    if (s.mesh)
      landmarks.set(
        s.i,
        Array.from({ length: s.mesh.length / 2 }, (_, k) => [s.mesh![2 * k]!, s.mesh![2 * k + 1]!]),
      );
  const decode = (findFaces?: (frame: Frame) => Promise<FoundFace[]>) =>
    decodeFrames(
      ffmpeg,
      path,
      { fps: analysis.fps, maxSide: MAX_SIDE, still: analysis.still, seconds: Math.min(MAX_CLIP_SECONDS, (last + 1.5) / analysis.fps) },
      async (frame, index) => {
        if (wanted.has(index)) {
          frames.set(index, frame);
          const face = findFaces && !landmarks.has(index) ? (await findFaces(frame))[0] : undefined;
          if (face)
            landmarks.set(
              index,
              face.mesh.map(([x, y]) => [x, y]),
            );
        }
        options.onFrame?.();
      },
    );
  // The detector (seconds to load) only when the analysis did not keep the landmarks.
  if (plan.idle.some(({ sample }) => !landmarks.has(sample.i))) await withFaceFinder((findFaces) => decode(findFaces));
  else await decode();
  return buildRig(analysis, plan, frames, landmarks);
}

/** What a face's verbose read says about its rig. */
export interface RigSummary {
  url: string;
  media_ids: string[];
  bytes: number;
  idle_frames: number;
  footage: Viseme[];
  warped: Viseme[];
}
