// The instrument's eyes: @vladmandic/human in Node on TensorFlow.js's WebAssembly backend (as the service's
// trainer, src/server/resources/faces/rig/landmarks.ts), with FaceMesh, its iris model (finer eyelids, for the
// eye aspect ratio) and the face-description model (faceres: the embedding that says who a face is). The
// model files are read from the npm package on disk: nothing is downloaded. Every frame is looked at afresh
// (no cache, no skipped detection): a frame's landmarks must not lean on the frame before it. The embedding
// costs twice the landmarks (faceres ~115 ms a frame on this machine's core, landmarks with the iris ~50 ms),
// so it is computed only when asked for (helpers/face-look/looked.ts picks the frames).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Rgb } from './image.js';
import type { Mesh } from './regions.js';

export interface Sight {
  /** FaceMesh's points in the frame's pixels (x, y), or null when no face was found. */
  mesh: Mesh | null;
  /** The face-description embedding (1024 numbers), when found. */
  embedding: number[] | null;
  score: number;
}

interface Human {
  load(): Promise<void>;
  detect(
    input: unknown,
    config?: object,
  ): Promise<{ face: Array<{ score: number; mesh: Array<[number, number, number]>; embedding?: number[] }> }>;
}
interface Tf {
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
  tensor4d(values: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): { dispose(): void };
}

const SCHEME = 'face-look-model://';
const require = createRequire(import.meta.url);
let loading: Promise<{ human: Human; tf: Tf }> | undefined;

async function readModel(dir: string, name: string) {
  const json = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
    modelTopology: unknown;
    format?: string;
    signature?: unknown;
    userDefinedMetadata?: unknown;
    weightsManifest: Array<{ paths: string[]; weights: unknown[] }>;
  };
  const parts = await Promise.all(
    json.weightsManifest.flatMap((group) => group.paths.map((p) => readFile(join(dir, p.replace(/[^A-Za-z0-9._-]/g, ''))))),
  );
  const weights = Buffer.concat(parts);
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    // The signature names the outputs: without it faceres answers without its embedding (an inner node).
    signature: json.signature,
    userDefinedMetadata: json.userDefinedMetadata,
    weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

async function load(): Promise<{ human: Human; tf: Tf }> {
  const humanDir = dirname(dirname(require.resolve('@vladmandic/human')));
  const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '/');
  const tf = require('@tensorflow/tfjs-core') as Tf;
  const modelDir = join(humanDir, 'models');
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith(SCHEME)) return null;
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
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 1, minConfidence: 0.3, skipFrames: 0, return: false },
      mesh: { enabled: true },
      iris: { enabled: true },
      description: { enabled: true, skipFrames: 0 },
      emotion: { enabled: false },
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

/** The face in one frame (the best found), its landmarks and, unless `embedding` is false, its embedding. */
export async function see(frame: Rgb, { embedding = true }: { embedding?: boolean } = {}): Promise<Sight> {
  loading ??= load();
  const { human, tf } = await loading;
  const input = tf.tensor4d(frame.rgb, [1, frame.height, frame.width, 3], 'int32');
  try {
    // Human merges a call's config into its own for good: each call says whether it wants the embedding.
    const [face] = (await human.detect(input, { face: { description: { enabled: embedding } } })).face
      .filter((f) => f.mesh.length >= 468)
      .sort((a, b) => b.score - a.score);
    if (!face) return { mesh: null, embedding: null, score: 0 };
    return { mesh: face.mesh.map(([x, y]) => [x, y]), embedding: face.embedding?.length ? [...face.embedding] : null, score: face.score };
  } finally {
    input.dispose();
  }
}
