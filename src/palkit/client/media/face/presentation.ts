// How long a face's drawing takes to reach the visitor's <video> (the canvas's capture, the stream's delivery,
// the element's paint), measured while the call runs: a face asks the voice for the shape this far ahead, so
// the visitor sees it when they hear it. Loaded with the faces, after the call starts.
//
// Measured from the frames the <video> presents. Where it calls requestVideoFrameCallback for its MediaStream
// (Chromium, Firefox), each presented frame says when it was handed to the compositor (presentationTime) and
// when it is (expected to be) on the screen; its delay is that display time less the time of the draw it shows
// (Firefox gives no display time, only the paint's: there the frame is on the screen a refresh later). The look-ahead is the median of the
// last 40 frames' delays, within a sane range. Which draw a frame shows, by engine:
// - Chromium: by its mediaTime, the capture's timestamp on a steady clock of its own (the page's less a
//   constant: a canvas drawn every 40 ms gave frames 40 ms apart in mediaTime, idle or with the cores busy).
//   The constant is found from the frames themselves (a frame is presented after it is captured, and an idle
//   page presents most within a millisecond). Not by the last draw before its presentation: in some calls most
//   frames were presented after the next draw, and that match measured 15-20 ms where the frames took 50-55.
// - Firefox: the last draw before its presentation. A frame is presented at the paint that shows it, most often
//   before the next draw (one shown after it is matched to a later draw, and its short delay falls out of the
//   median while such frames are fewer than half). Not by mediaTime: Firefox's follows the media graph's clock,
//   which runs off the audio device's (0.88x the page's here in a call; frames matched by it drifted the
//   look-ahead to the range's top).
// - WebKit: the last draw before the animation frame at which the <video> counts one frame more. WebKitGTK never
//   calls requestVideoFrameCallback for a MediaStream, but counts the stream's frames (getVideoPlaybackQuality());
//   a frame counted by an animation frame is painted by it and on the screen a refresh later (as the lip-sync
//   tests read WebKit's <video>). The default's 20 ms is what an idle page's frames took; a busy page's may
//   take longer, and the face now asks as far ahead as they do.
// Until enough frames are reported, and where none are, the engine's default.
import { pageEngine, type Engine } from '../page-engine.js';

/** What this needs of requestVideoFrameCallback's metadata (ms on the page's clock). */
export interface PresentedFrame {
  presentationTime: number;
  expectedDisplayTime: number;
  /** The frame's media timestamp (s): in Chromium its capture's, on a clock of its own. */
  mediaTime?: number;
}

/** The look-ahead is kept within this range (ms): outside it a frame was matched wrongly or the page stalled. */
export const PRESENTATION_RANGE = { min: 10, max: 150 } as const;

/**
 * The look-ahead where the <video> reports no frames, by engine (ms), and until it has reported enough. WebKit's
 * was measured so on an idle page: a canvas frame is in the <video> at the next animation frame (1 ms
 * after its draw at the median, 5 at p90, read from the <video> at each animation frame), and on the screen a
 * refresh (17 ms) later. Chromium's and Firefox's are what their frames measure in a call's page: Chromium's
 * 24-30 ms at each turn of test/realtime/e2e/lip-sync-chromium.test.ts's calls, each draw captured (41-55 ms
 * when it captured at the face's rate and kept every other draw; the greeting, which often starts before 8
 * frames are reported, was then asked 20-25 ms too far ahead); Firefox shows a frame at its next paint and a
 * refresh later.
 */
export const PRESENTATION_DEFAULTS = { chromium: 30, firefox: 60, webkit: 20 } as const;

/** How each engine's presented frames are matched to the draws they show (see above); null: not measured. */
export type FrameMatch = 'media time' | 'last draw';
export const FRAME_MATCH: Record<Engine, FrameMatch | null> = { chromium: 'media time', firefox: 'last draw', webkit: 'last draw' };

/** How each engine's presented frames are seen: its frame callbacks, or its frame count read at each animation frame. */
export type FrameSource = 'frame callbacks' | 'frame count';
export const FRAME_SOURCE: Record<Engine, FrameSource> = { chromium: 'frame callbacks', firefox: 'frame callbacks', webkit: 'frame count' };

/** Draws and presented frames kept: about 2.5 and 1.6 s of a face drawn at 25 fps. */
const KEEP_DRAWS = 64;
const KEEP_FRAMES = 40;
/** A screen refresh at 60 Hz (ms): how long after the paint that takes it a frame is on the screen. */
const REFRESH_MS = 1000 / 60;
/**
 * Presented frames needed before their median replaces the default. With 8, Firefox's and (slowed) WebKit's
 * greetings began before that many were reported, on the default: WebKit's on a loaded machine slowed to one
 * CPU's time asked 20 ms ahead where its frames took 30-50, and its greetings' mouths came 25-147 ms after
 * their sound (8 calls), against -49 to 65 in the 6 of 8 that had 4 frames' median (the PAL's greeting now also
 * waits for it: FaceTrack.measuring).
 */
export const FIRST_SAMPLES = 4;

export class PresentationDelay {
  #draws: number[] = [];
  /** The recent frames' times from draw to display. */
  #delays: number[] = [];
  #ms: number;
  #measured = false;
  #video: HTMLVideoElement | null = null;
  /** The page's clock less the frames' media clock (ms), as tight as the frames so far bound it. */
  #mediaOffset = Infinity;
  /** A <video>'s frames are being counted (its engine reports them). */
  #counting = false;

  constructor(
    readonly defaultMs: number = PRESENTATION_DEFAULTS[pageEngine()],
    /** How the <video>'s presented frames are matched to their draws (watch()); null: they are not measured. */
    readonly match: FrameMatch | null = FRAME_MATCH[pageEngine()],
    readonly source: FrameSource = FRAME_SOURCE[pageEngine()],
    /** Calls back at the page's next animation frame (a test's own in tests). */
    readonly nextAnimationFrame: (callback: (now: number) => void) => void = (callback) => requestAnimationFrame(callback),
  ) {
    this.#ms = defaultMs;
  }

  /** How far ahead of now the face asks for the shape to draw (ms). */
  get ms(): number {
    return this.#ms;
  }

  /** Whether `ms` comes from presented frames rather than the default. */
  get measured(): boolean {
    return this.#measured;
  }

  /** Whether the frames of the <video> it watches are being counted, and are not yet enough to measure. */
  get measuring(): boolean {
    return this.#counting && !this.#measured;
  }

  /** A frame drawn at `at` (the page's clock, performance.now(), as the frames' times: when its shape was asked for). */
  drawn(at: number): void {
    this.#draws.push(at);
    if (this.#draws.length > KEEP_DRAWS) this.#draws.shift();
  }

  /** A frame the <video> presented. */
  presented(frame: PresentedFrame): void {
    const drawn = this.#drawShown(frame);
    if (drawn === undefined || !Number.isFinite(frame.expectedDisplayTime)) return;
    // Firefox's expected display time is the paint's own (its callback's time): the screen shows it a refresh on.
    const shown = frame.expectedDisplayTime > frame.presentationTime ? frame.expectedDisplayTime : frame.presentationTime + REFRESH_MS;
    this.#delays.push(shown - drawn);
    if (this.#delays.length > KEEP_FRAMES) this.#delays.shift();
    if (this.#delays.length < FIRST_SAMPLES) return;
    const sorted = [...this.#delays].sort((a, b) => a - b);
    this.#ms = Math.min(PRESENTATION_RANGE.max, Math.max(PRESENTATION_RANGE.min, sorted[sorted.length >> 1]!));
    this.#measured = true;
  }

  /** Measures at each frame `video` presents while it shows `track` (the newest video watched wins). */
  watch(video: HTMLVideoElement, track: MediaStreamTrack): void {
    this.#video = video;
    this.#mediaOffset = Infinity;
    if (!this.match) return;
    const showing = () =>
      this.#video === video &&
      track.readyState !== 'ended' &&
      video.srcObject instanceof MediaStream &&
      video.srcObject.getTracks().includes(track);
    if (this.source === 'frame count') return this.#countFrames(video, showing);
    if (typeof video.requestVideoFrameCallback !== 'function') return;
    this.#counting = true;
    const next = (_now: number, meta: VideoFrameCallbackMetadata) => {
      if (!showing()) return;
      this.presented(meta);
      video.requestVideoFrameCallback(next);
    };
    video.requestVideoFrameCallback(next);
  }

  /** Each animation frame at which `video` counts one frame more presents one, on the screen a refresh later. */
  #countFrames(video: HTMLVideoElement, showing: () => boolean): void {
    if (typeof video.getVideoPlaybackQuality !== 'function') return;
    this.#counting = true;
    let counted = video.getVideoPlaybackQuality().totalVideoFrames;
    const next = (now: number) => {
      if (!showing()) return;
      const count = video.getVideoPlaybackQuality().totalVideoFrames;
      if (count !== counted) this.presented({ presentationTime: now, expectedDisplayTime: now + REFRESH_MS });
      counted = count;
      this.nextAnimationFrame(next);
    };
    this.nextAnimationFrame(next);
  }

  /** The draw a presented frame shows. */
  #drawShown(frame: PresentedFrame): number | undefined {
    if (this.match !== 'media time' || frame.mediaTime === undefined || !Number.isFinite(frame.mediaTime))
      return this.#lastDrawBy(frame.presentationTime);
    const media = frame.mediaTime * 1000;
    // A frame is captured after its draw and presented after its capture: the offset is at most any frame's
    // presentation less its media time, and that bound is met by a frame presented as it was captured.
    this.#mediaOffset = Math.min(this.#mediaOffset, frame.presentationTime - media);
    return this.#lastDrawBy(media + this.#mediaOffset);
  }

  #lastDrawBy(at: number): number | undefined {
    for (let i = this.#draws.length - 1; i >= 0; i--) if (this.#draws[i]! <= at) return this.#draws[i];
    return undefined;
  }
}
