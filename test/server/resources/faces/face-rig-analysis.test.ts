// The face analysis on synthetic landmarks: which viseme a mouth shape is, which frames make the idle
// loop and the footage mouths, and the clips that must end in an error saying what to record instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FaceAnalysis, FaceProblem, footageVisemes, idleRun } from '../../../../src/server/resources/faces/rig/analysis.js';
import type { FoundFace } from '../../../../src/server/resources/faces/rig/landmarks.js';
import { classifyViseme, mouthPose, mouthShape } from '../../../../src/server/resources/faces/rig/mouth.js';

interface Pose {
  x?: number;
  y?: number;
  open?: number;
  width?: number;
  lips?: number;
  yaw?: number;
  size?: number;
}

/** A FaceMesh with the points the analysis reads: eyes 60 px apart, a mouth below them. */
function face({ x = 200, y = 200, open = 1, width = 40, lips = 12, yaw = 0, size = 150 }: Pose = {}): FoundFace {
  const mesh: Array<[number, number, number]> = Array.from({ length: 468 }, () => [x, y, 0]);
  const set = (i: number, px: number, py: number) => (mesh[i] = [px, py, 0]);
  set(33, x - 30, y - 40);
  set(133, x - 10, y - 40);
  set(362, x + 10, y - 40);
  set(263, x + 30, y - 40);
  set(159, x - 20, y - 43);
  set(145, x - 20, y - 37);
  set(386, x + 20, y - 43);
  set(374, x + 20, y - 37);
  const my = y + 30;
  set(61, x - width / 2, my);
  set(291, x + width / 2, my);
  set(13, x, my - open / 2);
  set(14, x, my + open / 2);
  set(0, x, my - open / 2 - lips / 2);
  set(17, x, my + open / 2 + lips / 2);
  return { box: [x - size / 2, y - size / 2, size, size], score: 0.95, mesh, yaw, pitch: 0 };
}

const frame = { width: 640, height: 480, rgb: new Uint8Array(0) };

function clip(faces: Array<FoundFace[]>): FaceAnalysis {
  const analysis = new FaceAnalysis();
  faces.forEach((f, i) => analysis.add(frame, i, f));
  return analysis;
}

describe('face analysis', () => {
  it('measures the mouth pose: centre, corner width, roll', () => {
    const pose = mouthPose(face({ x: 100, y: 100, width: 50 }).mesh);
    assert.deepEqual({ x: pose.x, y: pose.y, width: pose.width, angle: pose.angle }, { x: 100, y: 130, width: 50, angle: 0 });
  });

  it('sorts mouth shapes into visemes against the same face at rest', () => {
    const rest = mouthShape(face().mesh);
    const viseme = (p: Pose) => classifyViseme(mouthShape(face(p).mesh), rest);
    assert.equal(viseme({}), 'rest');
    assert.equal(viseme({ open: 16 }), 'A');
    assert.equal(viseme({ open: 10, width: 30 }), 'O');
    assert.equal(viseme({ open: 5, width: 30 }), 'U');
    assert.equal(viseme({ open: 9, width: 44 }), 'E');
    assert.equal(viseme({ open: 5, width: 46 }), 'I');
    assert.equal(viseme({ lips: 6 }), 'M');
    assert.equal(viseme({ width: 46 }), 'S');
  });

  it('takes the idle loop from the still, resting run and speaking mouths from the footage', () => {
    // 2 s at rest, then 1 s with the mouth wide open, then 1 s rounded.
    const frames = [
      ...Array.from({ length: 20 }, () => [face()]),
      ...Array.from({ length: 10 }, () => [face({ open: 16 })]),
      ...Array.from({ length: 10 }, () => [face({ open: 10, width: 30 })]),
    ];
    const analysis = clip(frames).finish({ fps: 10, still: false });
    assert.deepEqual(
      idleRun(analysis).map((s) => s.i),
      Array.from({ length: 20 }, (_, i) => i),
    );
    const footage = footageVisemes(analysis);
    assert.deepEqual([...footage.keys()].sort(), ['A', 'O', 'rest']);
    assert.ok(footage.get('A')!.i >= 20 && footage.get('A')!.i < 30);
  });

  const fails =
    (frames: Array<FoundFace[]>, still = false) =>
    () =>
      clip(frames).finish({ fps: 10, still });

  it('ends with a message that says what to record instead', () => {
    const n = (count: number, make: (i: number) => FoundFace[]) => Array.from({ length: count }, (_, i) => make(i));
    assert.throws(
      fails(n(20, () => [])),
      (e: Error) => e instanceof FaceProblem && /^no face was found in the video: record one person facing the camera/.test(e.message),
    );
    assert.throws(
      fails(n(20, () => [face(), face({ x: 450 })])),
      /two or more faces are in the video: record a video of one person alone in the frame/,
    );
    assert.throws(
      fails(
        n(1, () => [face(), face({ x: 450 })]),
        true,
      ),
      /two or more faces are in the photo: use a photo of one person alone/,
    );
    assert.throws(fails(n(20, () => [face({ size: 60 })])), /the face is too small \(60 px across, at least 96 px needed\): move closer/);
    assert.throws(
      fails(n(20, () => [face({ yaw: 0.9 })])),
      /the face is turned away from the camera: record the person looking straight into the camera/,
    );
    // The head moves a tenth of its width every frame: no still moment to loop.
    assert.throws(fails(n(30, (i) => [face({ x: 100 + (i % 2) * 15 })])), /the face never holds still with the mouth at rest/);
    // The mouth never rests: always wide open or rounded.
    assert.throws(fails(n(30, (i) => [face(i % 2 ? { open: 16 } : { open: 10, width: 30 })])), /never holds still with the mouth at rest/);
    assert.throws(fails(n(20, (i) => (i < 5 ? [face()] : []))), /a face was found in only 25 % of the video's frames/);
  });

  it('counts the face size in the original pixels when frames were scaled down for analysis', () => {
    // 60 px in a 640 px analysis frame of a 1280 px video is 120 px: large enough.
    assert.doesNotThrow(() =>
      clip(Array.from({ length: 20 }, () => [face({ size: 60 })])).finish({ fps: 10, still: false, sourceSide: 1280 }),
    );
  });
});
