// The instrument's eyes on every core: FaceMesh in WebAssembly runs on one thread, so the frames of a call are
// shared among one worker a core (and so are the readings of their pixels against rest, analyse.ts's readFrames) (each loads the models once, on first use, and lives until the process ends).
// A frame's sight does not depend on the frames before it (see.ts), so the order the workers take them in
// changes nothing. PALKIT_FACE_LOOK_WORKERS sets how many (1: one worker).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FrameReading, FrameToRead } from './analyse.js';
import type { Rgb } from './image.js';
import type { Mesh } from './regions.js';
import type { Sight } from './see.js';

let workers: Worker[] | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve(answer: unknown): void; reject(e: Error): void }>();

function pool(): Worker[] {
  const count = Math.max(1, Number(process.env.PALKIT_FACE_LOOK_WORKERS) || availableParallelism());
  workers ??= Array.from({ length: count }, () => {
    const worker = new Worker(new URL('./see-worker.mjs', import.meta.url), { execArgv: [] });
    worker.on('message', ({ id, answer, error }: { id: number; answer?: unknown; error?: string }) => {
      const done = waiting.get(id)!;
      waiting.delete(id);
      if (error) done.reject(new Error(error));
      else done.resolve(answer);
    });
    // A worker that fails is gone: every frame waiting fails with it, and the next call starts a fresh pool
    // (a message posted to a dead worker would never be answered).
    worker.on('error', (error) => {
      for (const done of waiting.values()) done.reject(error);
      waiting.clear();
      const dead = workers;
      workers = undefined;
      for (const w of dead ?? []) void w.terminate();
    });
    worker.unref();
    return worker;
  });
  return workers;
}

/** A job for a worker (see-worker.ts): a frame to see, or frames to read against rest (analyse.ts's readFrames). */
export type Job =
  { kind: 'see'; image: Rgb; embedding: boolean } | { kind: 'read'; rest: { image: Rgb; mesh: Mesh }; frames: FrameToRead[] };

function ask<T>(worker: Worker, job: Job): Promise<T> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (answer: unknown) => void, reject });
    worker.postMessage({ id, job });
  });
}

/** Each job's answer, in order, the jobs shared among the workers as each becomes free. */
async function doAll<T>(jobs: Job[]): Promise<T[]> {
  const answers: T[] = new Array(jobs.length);
  let next = 0;
  const team = pool();
  // Held while they work (an idle pool must not keep the process alive).
  for (const worker of team) worker.ref();
  try {
    await Promise.all(
      team.map(async (worker) => {
        for (let i = next++; i < jobs.length; i = next++) answers[i] = await ask<T>(worker, jobs[i]!);
      }),
    );
  } finally {
    for (const worker of team) worker.unref();
  }
  return answers;
}

/** Each image's sight, in order. */
export function seeAll(images: Rgb[], embedding: boolean): Promise<Sight[]> {
  return doAll<Sight>(images.map((image) => ({ kind: 'see', image, embedding })));
}

/** readFrames's readings of the frames against rest, in order, in batches of `batch` frames shared among the workers. */
export async function readAll(rest: { image: Rgb; mesh: Mesh }, frames: FrameToRead[], batch = 24): Promise<FrameReading[]> {
  const jobs: Job[] = [];
  for (let i = 0; i < frames.length; i += batch) jobs.push({ kind: 'read', rest, frames: frames.slice(i, i + batch) });
  return (await doAll<FrameReading[]>(jobs)).flat();
}
