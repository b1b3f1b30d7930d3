// Step "find the face": landmarks on sampled frames, the checks that turn a clip nobody can animate into
// a clear error (no face, several faces, too small, turned away, never still), and the compact per-frame
// record the rig step builds from (persisted, so a resumed job does not run the detector again).
import { classifyViseme, isResting, lipLine, mouthPose, mouthShape, restShape, type LipLine, type MouthShape } from './mouth.js';
import type { FoundFace, Frame } from './landmarks.js';
import type { MouthPose } from '../../../../protocol/faces/rig.js';

/** A face that cannot be trained: the message says what was wrong and what to record instead. */
export class FaceProblem extends Error {}

export const MIN_FACE_PX = 96;
/** A face counts as turned away beyond these (radians). */
const MAX_YAW = 0.5;
const MAX_PITCH = 0.6;
/** Movement of the face's centre between two samples, as a share of its width, that still counts as still. */
const STILL_STEP = 0.03;

export interface Sample {
  /** Index of the sampled frame (at the analysis rate). */
  i: number;
  box: [number, number, number, number];
  pose: MouthPose;
  shape: MouthShape;
  yaw: number;
  /** Where the lips meet (absent in an analysis stored before it was measured). */
  lips?: LipLine;
  /** FaceMesh's points (x, y in turn, analysed pixels), kept for the idle loop's frames only (the rig's mesh). */
  mesh?: number[];
}

export interface Analysis {
  fps: number;
  /** Size of the decoded (analysed) frames. */
  width: number;
  height: number;
  frames: number;
  still: boolean;
  samples: Sample[];
}

/** Collects one frame's faces; `finish` checks the whole clip. */
export class FaceAnalysis {
  private frames = 0;
  private crowded = 0;
  private width = 0;
  private height = 0;
  private readonly samples: Sample[] = [];
  private readonly turned: number[] = [];
  private readonly meshes = new Map<number, number[]>();

  add(frame: Frame, index: number, faces: FoundFace[]): void {
    this.frames++;
    this.width = frame.width;
    this.height = frame.height;
    const main = faces[0];
    if (!main) return;
    // A second face counts when it is a real one, not a speck in the background.
    if (faces.slice(1).some((f) => f.box[2] >= main.box[2] * 0.4 && f.score >= 0.6)) this.crowded++;
    if (Math.abs(main.yaw) > MAX_YAW || Math.abs(main.pitch) > MAX_PITCH) this.turned.push(index);
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const pose = mouthPose(main.mesh);
    const shape = mouthShape(main.mesh);
    const lips = lipLine(main.mesh, pose);
    this.meshes.set(
      index,
      main.mesh.slice(0, 468).flatMap(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]),
    );
    this.samples.push({
      i: index,
      box: main.box.map(round) as Sample['box'],
      pose: { x: round(pose.x), y: round(pose.y), width: round(pose.width), angle: round(pose.angle) },
      shape: {
        open: round(shape.open),
        width: round(shape.width),
        lips: round(shape.lips),
        lowerLip: round(shape.lowerLip),
        eyes: round(shape.eyes),
      },
      yaw: round(main.yaw),
      lips: { middle: round(lips.middle), corners: round(lips.corners) },
    });
  }

  /** The clip's record, or a FaceProblem. `sourceSide`: the longer side of the original frames, if known. */
  finish(options: { fps: number; still: boolean; sourceSide?: number }): Analysis {
    const { frames, samples } = this;
    const scale = options.sourceSide && this.width ? Math.max(1, options.sourceSide / Math.max(this.width, this.height)) : 1;
    const kind = options.still ? 'photo' : 'video';
    const advice = options.still
      ? 'use a photo of one person facing the camera, the face well lit and at least 96 px across'
      : 'record one person facing the camera for 5–20 s, the face well lit and filling a good part of the frame';
    if (frames === 0 || samples.length === 0) throw new FaceProblem(`no face was found in the ${kind}: ${advice}`);
    if (this.crowded >= Math.max(1, frames * 0.3))
      throw new FaceProblem(
        `two or more faces are in the ${kind}: ${options.still ? 'use a photo' : 'record a video'} of one person alone in the frame`,
      );
    if (samples.length < frames * 0.5)
      throw new FaceProblem(`a face was found in only ${Math.round((samples.length / frames) * 100)} % of the video's frames: ${advice}`);
    const sizes = samples.map((s) => Math.max(s.box[2], s.box[3]) * scale).sort((a, b) => a - b);
    const size = sizes[Math.floor(sizes.length / 2)]!;
    if (size < MIN_FACE_PX)
      throw new FaceProblem(
        `the face is too small (${Math.round(size)} px across, at least ${MIN_FACE_PX} px needed): ${options.still ? 'use a larger photo, or one taken closer' : 'move closer to the camera or record at a higher resolution'}`,
      );
    if (this.turned.length > samples.length * 0.5)
      throw new FaceProblem(
        `the face is turned away from the camera: ${options.still ? 'use a photo where the person looks straight into the camera' : 'record the person looking straight into the camera'}`,
      );
    const analysis: Analysis = { fps: options.fps, width: this.width, height: this.height, frames, still: options.still, samples };
    if (!options.still && idleRun(analysis).length < Math.min(Math.round(options.fps * 1.5), Math.floor(frames * 0.8))) {
      throw new FaceProblem(
        'the face never holds still with the mouth at rest: record a few seconds where the person looks into the camera, head still and mouth closed, besides the speaking part',
      );
    }
    // The idle loop's frames keep their landmarks: the rig step builds its mesh from them without the detector.
    const idle = new Set(idleFrames(analysis).map((s) => s.i));
    analysis.samples = samples.map((s) => (idle.has(s.i) && this.meshes.has(s.i) ? { ...s, mesh: this.meshes.get(s.i)! } : s));
    return analysis;
  }
}

const facing = (s: Sample) => Math.abs(s.yaw) <= MAX_YAW;

/** Longest idle loop, in frames (a sheet of 8 × 6 cells of 512 px stays within every GPU's texture size). */
export const MAX_IDLE_FRAMES = 48;

/** The samples of the idle loop: a photo's one, or a clip's still, resting run (at most MAX_IDLE_FRAMES). */
export function idleFrames(analysis: Analysis): Sample[] {
  return analysis.still ? analysis.samples.slice(0, 1) : loopSegment(idleRun(analysis));
}

/** Within a still, resting run: the segment whose last frame is most like its first (the seam least seen). */
function loopSegment(run: Sample[]): Sample[] {
  const length = Math.min(run.length, MAX_IDLE_FRAMES);
  if (length === run.length) return run;
  const distance = (a: Sample, b: Sample) =>
    Math.hypot(a.pose.x - b.pose.x, a.pose.y - b.pose.y) + Math.abs(a.pose.width - b.pose.width) + Math.abs(a.box[2] - b.box[2]);
  let best = 0;
  for (let start = 1; start + length <= run.length; start++) {
    if (distance(run[start]!, run[start + length - 1]!) < distance(run[best]!, run[best + length - 1]!)) best = start;
  }
  return run.slice(best, best + length);
}

/** The longest run of consecutive samples where the head is still and the mouth rests. */
export function idleRun(analysis: Analysis): Sample[] {
  const rest = restShape(analysis.samples.map((s) => s.shape));
  let best: Sample[] = [];
  let run: Sample[] = [];
  for (const s of analysis.samples) {
    const prev = run[run.length - 1];
    const moved = prev
      ? Math.hypot(s.box[0] + s.box[2] / 2 - (prev.box[0] + prev.box[2] / 2), s.box[1] + s.box[3] / 2 - (prev.box[1] + prev.box[3] / 2)) /
        s.box[2]
      : 0;
    const ok = facing(s) && isResting(s.shape, rest) && (!prev || (s.i === prev.i + 1 && moved <= STILL_STEP));
    if (ok) run.push(s);
    else run = facing(s) && isResting(s.shape, rest) ? [s] : [];
    if (run.length > best.length) best = [...run];
  }
  return best;
}

/** For each viseme the footage shows: the sample most typical of it (nearest its members' median). */
export function footageVisemes(analysis: Analysis): Map<string, Sample> {
  const rest = restShape(analysis.samples.map((s) => s.shape));
  const groups = new Map<string, Sample[]>();
  for (const s of analysis.samples) {
    if (!facing(s)) continue;
    const v = classifyViseme(s.shape, rest);
    groups.set(v, [...(groups.get(v) ?? []), s]);
  }
  const chosen = new Map<string, Sample>();
  for (const [v, members] of groups) {
    // One frame is no evidence of a shape (a blur, a mis-detection): at least two.
    if (members.length < 2 && v !== 'rest') continue;
    const mid = (f: (s: MouthShape) => number) => members.map((m) => f(m.shape)).sort((a, b) => a - b)[Math.floor(members.length / 2)]!;
    const target = { open: mid((s) => s.open), width: mid((s) => s.width) };
    const score = (s: Sample) => Math.abs(s.shape.open - target.open) + Math.abs(s.shape.width - target.width);
    chosen.set(
      v,
      members.reduce((a, b) => (score(b) < score(a) ? b : a)),
    );
  }
  return chosen;
}
