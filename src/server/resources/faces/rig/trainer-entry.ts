// The face trainer's process: takes one learning step (find the face, or build the rig) over a clip or
// photo on disk from the service, says after each frame that it is alive, and answers with the step's
// result or why it failed. Started and ended by trainer-process.ts; the landmark model loads here, never
// in the service. It stays until the service ends it, and leaves when the service is gone.
import { FaceProblem } from './analysis.js';
import { DecodeFailed } from './decode.js';
import { analyseFace, makeRig } from './train.js';
import type { TrainerMessage, TrainerRequest } from './trainer-process.js';

const post = (message: TrainerMessage) => process.send!(message);
const onFrame = () => post({ type: 'frame' });

async function step(request: TrainerRequest): Promise<TrainerMessage> {
  try {
    if (request.step === 'analyse') {
      const { ffmpeg, path, still, sourceSide } = request;
      return { type: 'analysis', analysis: await analyseFace(ffmpeg, path, { still, ...(sourceSide ? { sourceSide } : {}), onFrame }) };
    }
    return { type: 'rig', files: await makeRig(request.ffmpeg, request.path, request.analysis, { onFrame }) };
  } catch (error) {
    const kind = error instanceof FaceProblem ? 'face' : error instanceof DecodeFailed ? 'decode' : 'other';
    return { type: 'failed', kind, message: error instanceof Error ? error.message : String(error) };
  }
}

let started = false;
process.on('message', (request: TrainerRequest) => {
  if (started) return;
  started = true;
  void step(request).then(post);
});
// The service crashed or was killed: nobody wants the result.
process.on('disconnect', () => process.exit(0));
