// The video renderer's process: draws one generated video's frames (a trained face's rig: rig-video.ts; Ada: ada-video.ts) and encodes them to the
// MP4 file the service named, reporting every second of video drawn with its own resident memory, then
// `done` or why it failed. Started per video and ended by rig-render-process.ts; @napi-rs/canvas (Skia) and
// every frame buffer live here, never in the service. It leaves when the service is gone.
import { FaceRig } from '../../../../protocol/faces/rig.js';
import { RenderError } from './contract.js';
import type { RigRenderMessage, RigRenderRequest } from './rig-render-process.js';
import { renderRigVideo } from './rig-video.js';
import { renderAdaVideo } from './ada-video.js';

const post = (message: RigRenderMessage) => process.send!(message);
const rssMb = () => process.memoryUsage.rss() / (1024 * 1024);

async function render(request: RigRenderRequest): Promise<RigRenderMessage> {
  try {
    const { face, cues, durationSeconds } = request;
    const progress = {
      onFrames: () => {
        const rss = rssMb();
        // The service ends it too when it says so; this is the same bound, kept without a round trip.
        if (rss > request.memoryMb) {
          post({
            type: 'failed',
            kind: 'memory',
            message: `the video renderer used ${Math.round(rss)} MB (its cap is ${request.memoryMb} MB)`,
          });
          process.exit(1);
        }
        post({ type: 'progress', rssMb: rss });
      },
    };
    if (face.kind === 'ada') await renderAdaVideo(request.ffmpeg, { cues, durationSeconds }, request.out, progress);
    else
      await renderRigVideo(
        request.ffmpeg,
        { rig: FaceRig.parse(face.rig), idle: face.idle, mouths: face.mouths, cues, durationSeconds },
        request.out,
        progress,
      );
    return { type: 'done' };
  } catch (error) {
    return {
      type: 'failed',
      kind: error instanceof RenderError ? 'render' : 'other',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

let started = false;
process.on('message', (request: RigRenderRequest) => {
  if (started) return;
  started = true;
  void render(request).then(post);
});
// The service crashed or was killed: nobody wants the video.
process.on('disconnect', () => process.exit(0));
