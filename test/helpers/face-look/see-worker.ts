// One of the instrument's eyes in a worker thread (helpers/face-look/see-pool.ts): each message a job (a frame
// to see, or frames to read against rest), each answer its result.
import { parentPort } from 'node:worker_threads';
import { readFrames } from './analyse.js';
import type { Job } from './see-pool.js';
import { see } from './see.js';

parentPort!.on('message', async ({ id, job }: { id: number; job: Job }) => {
  try {
    const answer = job.kind === 'see' ? await see(job.image, { embedding: job.embedding }) : readFrames(job.rest, job.frames);
    parentPort!.postMessage({ id, answer });
  } catch (error) {
    parentPort!.postMessage({ id, error: String(error) });
  }
});
