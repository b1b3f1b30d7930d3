// Lip sync measured at the file (issue 51, point 6): a generated MP4's frames through FaceMesh (the service's
// own landmark finder, src/server/resources/faces/rig/landmarks.ts) give the mouth's opening per frame (inner
// lips 13–14 over the face's height 10–152); its audio, decoded by ffmpeg, gives a loudness envelope. The two
// series are cross-correlated at 10 ms steps: the lag of the best correlation is how far the mouth leads its
// sound (positive: the mouth moves first), and that correlation how closely it follows it.
import { execFileSync } from 'node:child_process';
import { locateFfmpeg } from '../../src/server/platform/media/ffmpeg.js';
import { decodeFrames } from '../../src/server/resources/faces/rig/decode.js';
import { withFaceFinder } from '../../src/server/resources/faces/rig/landmarks.js';

const FPS = 25;
const STEP_MS = 10;
const RATE = 16_000;
/** Loudness over this window around each step. */
const WINDOW_MS = 40;

export interface FileLipSync {
  /** Where the mouth runs ahead of the sound, ms (positive: it moves first). */
  leadMs: number;
  /** Pearson correlation of opening and loudness at that lag. */
  correlation: number;
  /** At no shift. */
  correlationAtZero: number;
  /** Frames with a face found, of all frames. */
  found: number;
  frames: number;
}

function pearson(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  if (n < 3) return NaN;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** The mouth's opening per frame (NaN where no face was found). */
export async function mouthOpenings(path: string): Promise<number[]> {
  const ffmpeg = locateFfmpeg(undefined) as { path: string };
  const openings: number[] = [];
  await withFaceFinder((findFaces) =>
    decodeFrames(ffmpeg.path, path, { fps: FPS, maxSide: 640, seconds: 600 }, async (frame) => {
      const face = (await findFaces(frame))[0];
      if (!face) return void openings.push(NaN);
      const d = (i: number, j: number) => Math.hypot(face.mesh[i]![0] - face.mesh[j]![0], face.mesh[i]![1] - face.mesh[j]![1]);
      openings.push(d(13, 14) / d(10, 152));
    }),
  );
  return openings;
}

/** The audio's loudness (RMS) every STEP_MS, over WINDOW_MS centred there. */
export function loudness(path: string): number[] {
  const ffmpeg = locateFfmpeg(undefined) as { path: string };
  const pcm = execFileSync(ffmpeg.path, ['-v', 'error', '-i', path, '-vn', '-ac', '1', '-ar', String(RATE), '-f', 's16le', 'pipe:1'], {
    maxBuffer: 512 << 20,
  });
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
  const step = (RATE * STEP_MS) / 1000;
  const half = (RATE * WINDOW_MS) / 2000;
  const out: number[] = [];
  for (let c = 0; c < samples.length; c += step) {
    let sum = 0;
    let n = 0;
    for (let i = Math.max(0, c - half); i < Math.min(samples.length, c + half); i++, n++) sum += samples[i]! ** 2;
    out.push(Math.sqrt(sum / Math.max(1, n)));
  }
  return out;
}

/** Measures the file's lip sync (see the header). */
export async function fileLipSync(path: string, maxLagMs = 300): Promise<FileLipSync> {
  const openings = await mouthOpenings(path);
  const found = openings.filter((o) => Number.isFinite(o)).length;
  // Frame n is shown from n × 40 ms: the opening at each 10 ms step, from the frame shown then (held, as a player does).
  const audio = loudness(path);
  const mouth = audio.map((_, k) => openings[Math.min(openings.length - 1, Math.floor((k * STEP_MS * FPS) / 1000))]!);
  const at = (lagMs: number) => {
    // mouth(t) against audio(t + lag): the best lag is how far the mouth runs ahead.
    const shift = Math.round(lagMs / STEP_MS);
    const a: number[] = [];
    const b: number[] = [];
    for (let k = 0; k < mouth.length; k++) {
      const j = k + shift;
      if (j < 0 || j >= audio.length || !Number.isFinite(mouth[k]!)) continue;
      a.push(mouth[k]!);
      b.push(audio[j]!);
    }
    return pearson(a, b);
  };
  let best = { lag: 0, r: -Infinity };
  for (let lag = -maxLagMs; lag <= maxLagMs; lag += STEP_MS) {
    const r = at(lag);
    if (r > best.r) best = { lag, r };
  }
  return { leadMs: best.lag, correlation: best.r, correlationAtZero: at(0), found, frames: openings.length };
}
