// The PAL's face as a video track in a local room, the shape a Daily room gives: drawn by the elements
// for a built-in face or from a trained face's rig, moving with the voice being heard.
import type { Viseme } from '../../../../protocol/visemes.js';

/**
 * How long a face's drawing takes to reach the visitor's `<video>`: the canvas's capture, the stream's
 * delivery and the element's next paint. A face asks for the shape this far ahead, so the visitor sees it
 * when they hear it (measured at the `<video>` by test/e2e/lip-sync.test.ts).
 */
export const PRESENTATION_MS = 60;

/** What the face follows: the PAL's voice as it is being heard. */
export interface FaceTimeline {
  /** The mouth shape heard now, or `aheadMs` from now. */
  visemeNow(aheadMs?: number): Viseme;
  speaking(): boolean;
  /** The mouth shape last given by visemeNow() reaches the screen at `at` (performance.now()), for measuring lip sync. */
  drawn?(at: number): void;
}

export interface FaceTrack {
  track: MediaStreamTrack;
  stop(): void;
}
