// The PAL's face as a video track in a local room, the shape a Daily room gives: drawn by the elements
// for a built-in face or from a trained face's rig, moving with the voice being heard.
import type { Viseme } from '../../../../protocol/visemes.js';
import { pageEngine } from '../page-engine.js';
import { stopTrack, whenShown } from '../shown-tracks.js';
import type { PresentationDelay } from './presentation.js';

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
  /**
   * Whether the face still waits for its <video> to report enough frames to know how far ahead to ask for the
   * shape (presentation.ts): until then it asks by its engine's default.
   */
  measuring(): boolean;
  stop(): void;
}

/**
 * A face's canvas as a stream: each draw captured (no frame rate given), except in WebKitGTK, which given no rate
 * captured one frame of a whole call, and gets the face's rate. At a set rate Firefox captures on a timer of its
 * own, at the first paint after each tick, and beating with the face's drawing timer it took 58 of 100 draws
 * (its <video> showed 15 frames a second, 50-84 ms apart; the trained face's first motion at the <video> fell up
 * to a frame late). Chromium at a set rate drops a draw that comes sooner than a frame's time after the last it
 * took: a page with work of its own moves the face's timer by a few ms either way, and it took every other draw
 * (a page busy 2-9 ms in every 10: 49-61 % of the draws; the lip-sync calls' <video> showed the face at 12
 * frames a second). test/realtime/browser/face-frames.test.ts.
 */
export function captureFace(canvas: HTMLCanvasElement, fps: number): MediaStream {
  return pageEngine() === 'webkit' ? canvas.captureStream(fps) : canvas.captureStream();
}

/**
 * A face that `draw` paints on `canvas`, as a track: drawn now and then every `frameMs` on a timer (hidden pages
 * get no animation frames; browsers slow the timer there), how late its frames are shown measured at the <video>
 * that shows it, and stopped, with `release`, by stop() or when the track ends.
 */
export function runFace(
  canvas: HTMLCanvasElement,
  frameMs: number,
  draw: () => void,
  presentation: PresentationDelay,
  release: () => void = () => undefined,
): FaceTrack {
  draw();
  const stream = captureFace(canvas, 1000 / frameMs);
  const track = stream.getVideoTracks()[0]!;
  whenShown(track, (media) => media instanceof HTMLVideoElement && presentation.watch(media, track));
  const timer = setInterval(() => {
    if (track.readyState === 'ended') return stop();
    draw();
  }, frameMs);
  function stop(): void {
    clearInterval(timer);
    stopTrack(track);
    release();
  }
  return { track, stop, measuring: () => presentation.measuring };
}
