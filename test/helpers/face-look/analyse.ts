// A reply's frames, each with its landmarks and embedding, into the face-look figures (a)–(e) of issue 51:
// chosen against one rest frame (the most typical frame shown in silence with open eyes). Pure.
import { LOWER_LIP_BAND, chinEdgeDrop, chinProfile } from './chin-edge.js';
import { correlation, cosine, lumaOf, quantile, type Rgb } from './image.js';
import { chinDrop, mouthInside, outsideChange, prepareRest, type MouthInside } from './measures.js';
import { eyeAspect, mouthOpening, type Mesh } from './regions.js';

export interface LookedFrame {
  /** Display time (ms, page clock). */
  at: number;
  image: Rgb;
  mesh: Mesh | null;
  embedding: number[] | null;
  /** Shown while the PAL was silent (a rest candidate). */
  silent: boolean;
}

/** One frame's readings. */
export interface FrameReading {
  index: number;
  at: number;
  /** (a) the worst cell's change outside the mouth-and-jaw region and eyelids, and where that cell is. */
  outside: number;
  outsideAt: [number, number];
  opening: number;
  /** (c) the chin's drop as FaceMesh's chin point reads it (rest face heights). */
  chin: number;
  /** (c) the chin's drop as its band of pixels moved (chin-edge.ts; rest face heights). */
  chinEdge: number;
  /** (c) the lower lip's drop as its band of pixels moved (rest face heights). */
  lipEdge: number;
  eye: number;
  /** (e) cosine similarity of its embedding to the rest frame's. */
  same: number;
  inside: MouthInside | null;
}

export interface LookFigures {
  frames: number;
  /** Frames where no face was found. */
  faceless: number;
  restIndex: number;
  readings: FrameReading[];
  /** (a) the change outside, over the frames: its median, 99th percentile, maximum (the frame), in luma levels. */
  outside: { median: number; p99: number; max: number; worstIndex: number };
  /** (b) over the widest-open tenth of the frames (at least 3): medians. */
  inside: {
    frames: number;
    opening: number;
    spread: number;
    toothShare: number;
    voidShare: number;
    warmShare: number;
    blackShare: number;
    /** The throat's hue (degrees; measures.ts throatHue), its median over the frames that have one. */
    throatHue: number;
    median: number;
    widestIndex: number;
  };
  /** (c) the chin against the opening (both from rest, face heights): correlation, slope, and the chin's 95th-percentile drop. */
  /**
   * (c) the chin against the mouth, judged by the pixels (chin-edge.ts): the chin's drop against the lower lip's,
   * both from their bands of pixels — correlation, slope, the chin's 95th-percentile drop, and the lower lip's;
   * FaceMesh's chin point against its lips' opening beside it, reported (on a soft-edged chin it reads a third
   * of the drop the pixels show); the opening's 95th percentile (FaceMesh) decides whether (c) is judged.
   */
  chin: ChinFit & { lipTravel: number; openingRange: number; faceMesh: ChinFit };
  /** (d) the eyes: rest aspect, the blinks found (runs of closed frames), each one's least aspect as a share of rest, and (a)'s worst during them. */
  blinks: { restAspect: number; count: number; depths: number[]; outsideDuring: number; midIndex: number | null };
  /** (e) the embedding's cosine similarity to rest over the frames that have one: the least, the 5th percentile, how many. */
  same: { min: number; p5: number; worstIndex: number; frames: number };
}

/** The chin's drop against the mouth's: correlation, slope (least squares through rest) and the chin's 95th-percentile drop. */
export interface ChinFit {
  correlation: number;
  slope: number;
  travel: number;
}

/** Frames either reading could not read (NaN) are left out. */
function fitChin(openings: number[], chins: number[]): ChinFit {
  const pairs = openings.map((o, i) => [o, chins[i]!]).filter(([o, c]) => !Number.isNaN(o) && !Number.isNaN(c));
  const [xs, ys] = [pairs.map((p) => p[0]!), pairs.map((p) => p[1]!)];
  const slope =
    xs.reduce((s, o, i) => s + o * ys[i]!, 0) /
    Math.max(
      1e-9,
      xs.reduce((s, o) => s + o * o, 0),
    );
  return { correlation: correlation(xs, ys), slope, travel: ys.length ? quantile(ys, 0.95) : NaN };
}

/** An eye aspect below this share of the rest's is a closing eye (FaceMesh read made blinks at 42–49 %, open eyes at 90–110 %). */
export const CLOSED_SHARE = 0.65;

/** The rest frame: among silent frames with a face (any frame if none), open-eyed, the one whose mesh is nearest the median mesh. */
export function chooseRest(frames: LookedFrame[]): number {
  const withFace = frames.map((f, i) => ({ f, i })).filter(({ f }) => f.mesh);
  let pool = withFace.filter(({ f }) => f.silent);
  if (pool.length < 3) pool = withFace;
  if (!pool.length) throw new Error('no frame shows a face');
  const eyes = quantile(
    pool.map(({ f }) => eyeAspect(f.mesh!)),
    0.5,
  );
  const open = pool.filter(({ f }) => eyeAspect(f.mesh!) >= 0.9 * eyes);
  const candidates = open.length ? open : pool;
  const n = candidates[0]!.f.mesh!.length;
  const median = Array.from({ length: n }, (_, k) =>
    [0, 1].map((axis) =>
      quantile(
        candidates.map(({ f }) => f.mesh![k]![axis]!),
        0.5,
      ),
    ),
  );
  let best = candidates[0]!,
    bestDistance = Infinity;
  for (const c of candidates) {
    let d = 0;
    for (let k = 0; k < n; k++) d += Math.hypot(c.f.mesh![k]![0] - median[k]![0]!, c.f.mesh![k]![1] - median[k]![1]!);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best.i;
}

/** A frame to read against rest: its place in the reply, time, pixels and landmarks. */
export type FrameToRead = Pick<LookedFrame, 'at' | 'image'> & { index: number; mesh: Mesh };

/**
 * The readings of frames against the rest frame (each frame's alone: helpers/face-look/looked.ts shares them
 * among the instrument's worker threads). Frames without a face have none.
 */
export function readFrames(restFrame: { image: Rgb; mesh: Mesh }, frames: FrameToRead[]): FrameReading[] {
  const rest = prepareRest({ image: restFrame.image, mesh: restFrame.mesh });
  const restOpening = mouthOpening(rest.seen.mesh);
  const restChin = chinProfile(rest, lumaOf(restFrame.image));
  const restLip = chinProfile(rest, lumaOf(restFrame.image), LOWER_LIP_BAND);
  return frames.map((f) => {
    const change = outsideChange(rest, { image: f.image, mesh: f.mesh });
    return {
      index: f.index,
      at: f.at,
      outside: change.worst,
      outsideAt: change.at,
      opening: mouthOpening(f.mesh) - restOpening,
      chin: chinDrop(rest, f.mesh),
      chinEdge: chinEdgeDrop(restChin, lumaOf(f.image), change.toFrame),
      lipEdge: chinEdgeDrop(restLip, lumaOf(f.image), change.toFrame),
      eye: eyeAspect(f.mesh),
      same: NaN, // withSimilarity's
      inside: null,
    };
  });
}

/** The frames with a face, as readFrames takes them. */
export function framesToRead(frames: LookedFrame[]): FrameToRead[] {
  return frames.flatMap((f, index) => (f.mesh ? [{ index, at: f.at, image: f.image, mesh: f.mesh }] : []));
}

/** The figures; `readings` (readFrames's, in frame order) when already taken. */
export function analyseLook(
  frames: LookedFrame[],
  restIndex = chooseRest(frames),
  readings = readFrames({ image: frames[restIndex]!.image, mesh: frames[restIndex]!.mesh! }, framesToRead(frames)),
): LookFigures {
  const restEye = eyeAspect(frames[restIndex]!.mesh!);
  const by = <K extends keyof FrameReading>(key: K) => readings.map((r) => r[key] as number);

  const worst = readings.reduce((w, r) => (r.outside > w.outside ? r : w), readings[0]!);
  const widest = [...readings].sort((p, q) => q.opening - p.opening).slice(0, Math.max(3, Math.ceil(readings.length / 10)));
  for (const r of widest) r.inside = mouthInside({ image: frames[r.index]!.image, mesh: frames[r.index]!.mesh! });
  const insides = widest.map((r) => r.inside!);
  const med = (xs: number[]) => quantile(xs, 0.5);

  const openings = by('opening');
  const byFaceMesh = fitChin(openings, by('chin'));
  const byPixels = fitChin(by('lipEdge'), by('chinEdge'));
  const lipDrops = by('lipEdge').filter((d) => !Number.isNaN(d));

  // Blinks: runs of frames with the eyes' aspect under CLOSED_SHARE of rest.
  const depths: number[] = [];
  let outsideDuring = 0,
    midIndex: number | null = null,
    deepest = Infinity;
  for (let i = 0; i < readings.length;) {
    if (readings[i]!.eye >= CLOSED_SHARE * restEye) {
      i++;
      continue;
    }
    let j = i,
      least = readings[i]!;
    while (j < readings.length && readings[j]!.eye < CLOSED_SHARE * restEye) {
      if (readings[j]!.eye < least.eye) least = readings[j]!;
      outsideDuring = Math.max(outsideDuring, readings[j]!.outside);
      j++;
    }
    depths.push(least.eye / restEye);
    if (least.eye < deepest) {
      deepest = least.eye;
      midIndex = least.index;
    }
    i = j;
  }

  return withSimilarity(frames, {
    frames: frames.length,
    faceless: frames.length - readings.length,
    restIndex,
    readings,
    outside: { median: med(by('outside')), p99: quantile(by('outside'), 0.99), max: worst.outside, worstIndex: worst.index },
    inside: {
      frames: widest.length,
      opening: med(widest.map((r) => r.opening)),
      spread: med(insides.map((s) => s.spread)),
      toothShare: med(insides.map((s) => s.toothShare)),
      voidShare: med(insides.map((s) => s.voidShare)),
      warmShare: med(insides.map((s) => s.warmShare)),
      blackShare: med(insides.map((s) => s.blackShare)),
      throatHue: med(insides.map((s) => s.throatHue).filter((h) => !Number.isNaN(h))),
      median: med(insides.map((s) => s.median)),
      widestIndex: widest[0]!.index,
    },
    chin: {
      ...byPixels,
      lipTravel: lipDrops.length ? quantile(lipDrops, 0.95) : NaN,
      openingRange: quantile(openings, 0.95),
      faceMesh: byFaceMesh,
    },
    blinks: { restAspect: restEye, count: depths.length, depths, outsideDuring, midIndex },
    same: { min: NaN, p5: NaN, worstIndex: readings[0]!.index, frames: 0 },
  });
}

/**
 * (e) taken again from the frames' embeddings, the rest of the figures kept: what analyseLook gives once the
 * frames it chose have their embeddings (helpers/face-look/looked.ts), without reading every frame's pixels again.
 */
export function withSimilarity(frames: LookedFrame[], figures: LookFigures): LookFigures {
  const restEmbedding = frames[figures.restIndex]!.embedding;
  const readings = figures.readings.map((r) => {
    const embedding = frames[r.index]!.embedding;
    return { ...r, same: embedding && restEmbedding ? cosine(embedding, restEmbedding) : NaN };
  });
  const withSame = readings.filter((r) => !Number.isNaN(r.same));
  const sames = withSame.map((r) => r.same);
  const leastSame = withSame.length ? withSame.reduce((w, r) => (r.same < w.same ? r : w)) : readings[0]!;
  return {
    ...figures,
    readings,
    same: {
      min: sames.length ? Math.min(...sames) : NaN,
      p5: sames.length ? quantile(sames, 0.05) : NaN,
      worstIndex: leastSame.index,
      frames: sames.length,
    },
  };
}
