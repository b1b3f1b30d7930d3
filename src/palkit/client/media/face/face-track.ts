// The PAL's face as a video track in a local room, the shape a Daily room gives: drawn by the elements
// for a built-in face, or a trained face's footage that moves only while the PAL speaks.
import type { Viseme } from '../../../../protocol/visemes.js';

/** What the face follows: the PAL's voice as it is being heard. */
export interface FaceTimeline {
  visemeNow(): Viseme;
  speaking(): boolean;
  /** The mouth shape last given by visemeNow() was drawn at `at` (performance.now()), for measuring lip sync. */
  drawn?(at: number): void;
}

export interface FaceTrack {
  track: MediaStreamTrack;
  stop(): void;
}
