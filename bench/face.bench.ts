// `npm run bench -- face`: a trained face's costs. Training (bench/face-training.ts) here; the browser's
// render cost of the same rig belongs beside it.
import { benchFaceTraining } from './face-training.js';

export default async function (): Promise<void> {
  await benchFaceTraining();
}
