// The instrument's eyes on every core: FaceMesh in WebAssembly runs on one thread, so the frames of a call are
// shared among one worker a core (each loads the models once, on first use, and lives until the process ends).
// A frame's sight does not depend on the frames before it (see.ts), so the order the workers take them in
// changes nothing. PALKIT_FACE_LOOK_WORKERS sets how many (1: one worker).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Rgb } from './image.js';
import type { Sight } from './see.js';

let workers: Worker[] | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve(s: Sight): void; reject(e: Error): void }>();

function pool(): Worker[] {
  const count = Math.max(1, Number(process.env.PALKIT_FACE_LOOK_WORKERS) || availableParallelism());
  workers ??= Array.from({ length: count }, () => {
    const worker = new Worker(new URL('./see-worker.mjs', import.meta.url), { execArgv: [] });
    worker.on('message', ({ id, sight, error }: { id: number; sight?: Sight; error?: string }) => {
      const done = waiting.get(id)!;
      waiting.delete(id);
      if (error) done.reject(new Error(error));
      else done.resolve(sight!);
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

function seeOn(worker: Worker, image: Rgb, embedding: boolean): Promise<Sight> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, image, embedding });
  });
}

/** Each image's sight, in order, the images shared among the workers as each becomes free. */
export async function seeAll(images: Rgb[], embedding: boolean): Promise<Sight[]> {
  const sights: Sight[] = new Array(images.length);
  let next = 0;
  const team = pool();
  // Held while they work (an idle pool must not keep the process alive).
  for (const worker of team) worker.ref();
  try {
    await Promise.all(
      team.map(async (worker) => {
        for (let i = next++; i < images.length; i = next++) sights[i] = await seeOn(worker, images[i]!, embedding);
      }),
    );
  } finally {
    for (const worker of team) worker.unref();
  }
  return sights;
}
