// What a trained face's two drawers share (rig-face.ts for version-1 rigs, rig-mesh.ts for version 2): the loaded
// rig, the options and the track they give, apart so that neither imports the other for its types.
import type { FaceRig } from '../../../../protocol/faces/rig.js';
import type { FaceTrack } from './face-track.js';
import type { PresentationDelay } from './presentation.js';

export interface LoadedRig {
  rig: FaceRig;
  idle: ImageBitmap;
  mouths: ImageBitmap;
}

export interface RigFaceOptions {
  /** How the rig's files are fetched (default: the page's fetch). */
  fetch?: typeof fetch;
  /** The face's clock, ms (default performance.now()); tests drive it. */
  clock?: () => number;
  random?: () => number;
  reducedMotion?: boolean;
  /**
   * 'auto' (default): WebGL where the device renders it on a GPU, canvas 2D where WebGL is missing or only in
   * software (SwiftShader, llvmpipe: slower than the 2D canvas on a CPU, measured 10 against 25 fps here), or
   * may be (WebKit's masked 'Apple GPU' off Apple's devices: rig-gl.ts, mayBeEmulated).
   * 'any': WebGL even in software (tests and the bench); 'never': canvas 2D.
   */
  webgl?: 'auto' | 'any' | 'never';
  /** How late its frames reach the <video> (default: measured at the <video> that shows it). */
  presentation?: PresentationDelay;
}

export interface RigFaceTrack extends FaceTrack {
  /** How its frames are drawn: WebGL where the page has it, else canvas 2D. */
  renderer: 'webgl' | '2d';
}
