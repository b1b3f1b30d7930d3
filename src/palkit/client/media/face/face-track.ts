// The PAL's face as a video track in a local room, the shape a Daily room gives: drawn by the elements
// for a built-in face or from a trained face's rig, moving with the voice being heard.
import type { Viseme } from '../../../../protocol/visemes.js';

/** What the face follows: the PAL's voice as it is being heard. */
export interface FaceTimeline {
  /**
   * The mouth shape heard now, or `aheadMs` from now (a face asks as far ahead as its drawing takes to reach
   * the visitor's `<video>`: presentation.ts).
   */
  visemeNow(aheadMs?: number): Viseme;
  speaking(): boolean;
  /** The mouth shape last given by visemeNow() reaches the screen at `at` (performance.now()), for measuring lip sync. */
  drawn?(at: number): void;
}

export interface FaceTrack {
  track: MediaStreamTrack;
  stop(): void;
}
