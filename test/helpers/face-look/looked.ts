// A call's captured frames looked at: FaceMesh and the face-description embedding on every frame
// (helpers/face-look/see.ts), then the figures (a)–(e) (helpers/face-look/analyse.ts).
import { analyseLook, type LookedFrame, type LookFigures } from './analyse.js';
import type { CapturedFrame } from './call.js';
import { see } from './see.js';

export async function lookAtFrames(frames: CapturedFrame[]): Promise<{ looked: LookedFrame[]; figures: LookFigures }> {
  const looked: LookedFrame[] = [];
  for (const frame of frames) {
    const sight = await see(frame.image);
    looked.push({ ...frame, mesh: sight.mesh, embedding: sight.embedding });
  }
  return { looked, figures: analyseLook(looked) };
}
