// One of the instrument's eyes in a worker thread (helpers/face-look/see-pool.ts): each message a frame,
// each answer its sight.
import { parentPort } from 'node:worker_threads';
import type { Rgb } from './image.js';
import { see } from './see.js';

parentPort!.on('message', async ({ id, image, embedding }: { id: number; image: Rgb; embedding: boolean }) => {
  try {
    parentPort!.postMessage({ id, sight: await see(image, { embedding }) });
  } catch (error) {
    parentPort!.postMessage({ id, error: String(error) });
  }
});
