// The PAL's face as a video track in a local room, the shape a Daily room gives: drawn by the elements
// for a built-in face or from a trained face's rig, moving with the voice being heard.
import type { Viseme } from '../../../../protocol/visemes.js';
import { pageEngine } from '../page-engine.js';

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

/**
 * A face's canvas as a stream. In Firefox each draw is captured (no frame rate given): at a set rate it captures
 * on a timer of its own, at the first paint after each tick, and beating with the face's drawing timer it took
 * 58 of 100 draws (its <video> showed 15 frames a second, 50-84 ms apart; the trained face's first motion at the
 * <video> fell up to a frame late, 40-62 ms a call against a bar of 50; test/realtime/browser/face-frames.test.ts).
 * Elsewhere at the face's rate: WebKitGTK, given no rate, captured one frame of a whole call. Chromium at the rate
 * drops a draw that comes sooner than 40 ms after the last it took, so on a page with work of its own (which moves
 * the face's timer a few ms either way) it keeps every other draw: the lip-sync calls' <video> showed 12 frames a
 * second, and on a page busy 2-9 ms in every 10 it presented 49-61 % of the draws. Captured with no rate it
 * presented all, but the mouth then came 20-40 ms earlier against the voice, past the lip-sync bar once in CI:
 * the look-ahead is to be re-centred for 25 frames a second first.
 */
export function captureFace(canvas: HTMLCanvasElement, fps: number): MediaStream {
  return pageEngine() === 'firefox' ? canvas.captureStream() : canvas.captureStream(fps);
}
