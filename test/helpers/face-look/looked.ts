// A call's captured frames looked at: FaceMesh on every frame (helpers/face-look/see.ts, on every core), each frame's pixels
// read against rest (on every core too), the face-description embedding on the frames (e) needs, then the figures (a)–(e)
// (helpers/face-look/analyse.ts).
import { analyseLook, chooseRest, CLOSED_SHARE, framesToRead, withSimilarity, type LookedFrame, type LookFigures } from './analyse.js';
import type { CapturedFrame } from './call.js';
import { readAll, seeAll } from './see-pool.js';

/** Every this many frames gets its embedding, besides the frames where the face changes most. */
export const EMBEDDING_EVERY = 8;

/**
 * The frames whose embedding (e) compares with the rest frame's: the rest frame, every EMBEDDING_EVERY-th
 * frame (about three a second), and those where the face departs most from rest — the widest-open tenth
 * ((b)'s frames), each blink's run, and (a)'s worst frame. The embedding is most of the instrument's cost.
 */
export function embeddingFrames(figures: LookFigures, every = EMBEDDING_EVERY): number[] {
  const chosen = new Set<number>([figures.restIndex, figures.outside.worstIndex]);
  figures.readings.forEach((r, i) => i % every === 0 && chosen.add(r.index));
  const widest = [...figures.readings].sort((p, q) => q.opening - p.opening).slice(0, figures.inside.frames);
  for (const r of widest) chosen.add(r.index);
  const closed = figures.blinks.restAspect * CLOSED_SHARE;
  for (const r of figures.readings) if (r.eye < closed) chosen.add(r.index);
  return [...chosen].sort((a, b) => a - b);
}

export async function lookAtFrames(frames: CapturedFrame[]): Promise<{ looked: LookedFrame[]; figures: LookFigures }> {
  const sights = await seeAll(
    frames.map((f) => f.image),
    false,
  );
  const looked: LookedFrame[] = frames.map((frame, i) => ({ ...frame, mesh: sights[i]!.mesh, embedding: null }));
  // The landmarks choose the rest frame, each frame's pixels are read against it on the workers, and the
  // figures pick the frames (e) looks at; (e) is then taken with their embeddings (the pixels' figures stay:
  // they do not depend on the embeddings).
  const restIndex = chooseRest(looked);
  const rest = looked[restIndex]!;
  const first = analyseLook(looked, restIndex, await readAll({ image: rest.image, mesh: rest.mesh! }, framesToRead(looked)));
  const chosen = embeddingFrames(first);
  const embedded = await seeAll(
    chosen.map((i) => frames[i]!.image),
    true,
  );
  chosen.forEach((index, k) => (looked[index]!.embedding = embedded[k]!.embedding));
  return { looked, figures: withSimilarity(looked, first) };
}
