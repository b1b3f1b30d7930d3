// Finds faces and their 468-point FaceMesh in RGB frames with @vladmandic/human (BlazeFace + FaceMesh,
// MIT), on TensorFlow.js's WebAssembly backend: no native binary, no GPU. The model files ship inside
// the package and are read from disk through a load router of our own (Node's fetch cannot read file:
// URLs), so nothing is downloaded at run time. One detector per process, loaded on first use: in the
// service, in the face trainer's process (trainer-process.ts), which ends after its step and takes it along.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface FoundFace {
  /** x, y, width, height in the frame's pixels. */
  box: [number, number, number, number];
  score: number;
  /** 468 points, [x, y, z] in the frame's pixels. */
  mesh: Array<[number, number, number]>;
  /** Radians; yaw 0 faces the camera. */
  yaw: number;
  pitch: number;
}

export interface Frame {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel. */
  rgb: Uint8Array;
}

interface Human {
  load(): Promise<void>;
  detect(
    input: unknown,
    config?: object,
  ): Promise<{
    face: Array<{
      box: [number, number, number, number];
      score: number;
      mesh: Array<[number, number, number]>;
      rotation?: { angle: { yaw: number; pitch: number } } | null;
    }>;
  }>;
}
interface Tf {
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
  tensor4d(values: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): { dispose(): void };
}

const SCHEME = 'palkit-model://';
const DETECT_EVERY = 5;
const require = createRequire(import.meta.url);
let detector: Promise<{ human: Human; tf: Tf }> | undefined;

async function loadDetector(): Promise<{ human: Human; tf: Tf }> {
  // The package's export map names its WebAssembly build without a leading ./ (unusable): go by file path.
  const humanDir = dirname(dirname(require.resolve('@vladmandic/human')));
  const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '/');
  const tf = require('@tensorflow/tfjs-core') as Tf;
  const modelDir = join(humanDir, 'models');
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith(SCHEME)) return null;
    // Only a bare model name: the router never reads outside the package's models folder.
    const name = url.slice(SCHEME.length);
    if (!/^[a-z0-9-]+\.json$/.test(name)) return null;
    return { load: () => readModel(modelDir, name) };
  });
  const { Human } = require(join(humanDir, 'dist/human.node-wasm.js')) as { Human: new (config: object) => Human };
  const human = new Human({
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: SCHEME,
    debug: false,
    // The face detector runs on every DETECT_EVERY-th frame of a clip; between, the mesh follows the face
    // from its last position (a third of the cost). No smoothing between frames.
    cacheSensitivity: 1,
    skipAllowed: true,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 4, minConfidence: 0.5, skipFrames: DETECT_EVERY - 1, skipTime: 1e9, return: false },
      mesh: { enabled: true },
      // The iris model refines the eyelids' points (the face-look instrument reads blinks with it too): a lid
      // closed onto FaceMesh's coarser lower lid left the eye's dark rim showing under it.
      iris: { enabled: true },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  });
  await human.load();
  return { human, tf };
}

async function readModel(dir: string, name: string) {
  const json = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
    modelTopology: unknown;
    format?: string;
    generatedBy?: string;
    convertedBy?: string;
    weightsManifest: Array<{ paths: string[]; weights: unknown[] }>;
  };
  const parts = await Promise.all(
    json.weightsManifest.flatMap((group) => group.paths.map((p) => readFile(join(dir, p.replace(/[^A-Za-z0-9._-]/g, ''))))),
  );
  const weights = Buffer.concat(parts);
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

let turn: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` with the detector to itself (the detector follows one clip's face from frame to frame, so
 * two clips never interleave); `findFaces` finds the faces in the clip's next frame, best first.
 */
export function withFaceFinder<T>(work: (findFaces: (frame: Frame) => Promise<FoundFace[]>) => Promise<T>): Promise<T> {
  const run = turn.then(async () => {
    detector ??= loadDetector().catch((error: unknown) => {
      detector = undefined;
      throw error;
    });
    const loaded = await detector;
    let first = true;
    return work((frame) => {
      const fresh = first;
      first = false;
      return detect(loaded, frame, fresh);
    });
  });
  turn = run.catch(() => undefined);
  return run;
}

async function detect({ human, tf }: { human: Human; tf: Tf }, frame: Frame, fresh: boolean): Promise<FoundFace[]> {
  const input = tf.tensor4d(frame.rgb, [1, frame.height, frame.width, 3], 'int32');
  try {
    // A clip's first frame runs the detector whatever the previous clip left behind.
    // (Human merges a call's config into its own: the usual rate is passed back on the next frames.)
    const result = await human.detect(input, { face: { detector: { skipFrames: fresh ? 0 : DETECT_EVERY - 1 } } });
    return result.face
      .filter((f) => f.mesh.length >= 468)
      .map((f) => ({ box: f.box, score: f.score, mesh: f.mesh, yaw: f.rotation?.angle.yaw ?? 0, pitch: f.rotation?.angle.pitch ?? 0 }))
      .sort((a, b) => b.score - a.score);
  } finally {
    input.dispose();
  }
}
