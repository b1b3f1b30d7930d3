// How long a face's drawing takes to reach the visitor's <video> (the canvas's capture, the stream's delivery,
// the element's paint), measured while the call runs: a face asks the voice for the shape this far ahead, so
// the visitor sees it when they hear it. Loaded with the faces, after the call starts.
//
// Measured where the <video> calls requestVideoFrameCallback for its MediaStream (Chromium, Firefox): each
// presented frame says when it is (expected to be) on the screen, and its mediaTime, the frame's capture time
// on the stream's own timeline. That timeline runs beside the page's clock at an offset the frames do not
// give; each frame was drawn at or before the last draw before its presentation, so `last draw − mediaTime`
// bounds the offset from above, and its smallest value over recent frames is the offset (reached whenever a
// frame is composited before the next draw: nearly every frame in Chromium, most in Firefox). mediaTime plus
// the offset then names each frame's draw (the recorded one nearest to it), and the frame's delay is its display
// time less that draw's; the look-ahead is the median of the recent delays, within a sane range. Where no frame is reported (WebKitGTK never calls it for a MediaStream), and
// until enough are, the engine's default measured at the <video> by test/realtime/e2e/lip-sync-engines.test.ts.

/** What this needs of requestVideoFrameCallback's metadata (ms on the page's clock; mediaTime in seconds). */
export interface PresentedFrame {
  mediaTime: number;
  presentationTime: number;
  expectedDisplayTime: number;
}

/** The look-ahead is kept within this range (ms): outside it a frame was matched wrongly or the page stalled. */
export const PRESENTATION_RANGE = { min: 10, max: 150 } as const;

/**
 * The look-ahead where the <video> reports no frames, by engine (ms): what made the mouth and the voice meet at
 * the <video> in test/realtime/e2e/lip-sync-engines.test.ts. Chromium's and Firefox's are used only for the
 * first frames of a call, until their measurement takes over.
 */
export const PRESENTATION_DEFAULTS = { chromium: 40, firefox: 60, webkit: 60 } as const;

/** Draws and presented frames kept: about 2.5 and 1.6 s of a face drawn at 25 fps. */
const KEEP_DRAWS = 64;
const KEEP_FRAMES = 40;
/** Presented frames needed before their median replaces the default. */
const FIRST_SAMPLES = 8;

type Engine = keyof typeof PRESENTATION_DEFAULTS;

/** The page's engine, as far as its presentation default goes. */
export function pageEngine(): Engine {
  if ('mozInnerScreenX' in globalThis) return 'firefox';
  // WebKit's own; Chromium's navigator.vendor is Google's.
  return /Apple/.test(globalThis.navigator?.vendor ?? '') ? 'webkit' : 'chromium';
}

export class PresentationDelay {
  #draws: number[] = [];
  #frames: PresentedFrame[] = [];
  #ms: number;
  #measured = false;
  #video: HTMLVideoElement | null = null;

  constructor(readonly defaultMs: number = PRESENTATION_DEFAULTS[pageEngine()]) {
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

  /** A frame drawn at `at` (the page's clock, performance.now(), as the frames' times: when its shape was asked for). */
  drawn(at: number): void {
    this.#draws.push(at);
    if (this.#draws.length > KEEP_DRAWS) this.#draws.shift();
  }

  /** A frame the <video> presented. */
  presented(frame: PresentedFrame): void {
    const last = this.#frames.at(-1);
    if (!Number.isFinite(frame.mediaTime) || !Number.isFinite(frame.expectedDisplayTime)) return;
    if (last && frame.mediaTime === last.mediaTime) return;
    // A new stream's timeline starts again: its frames cannot be matched with the old one's.
    if (last && frame.mediaTime < last.mediaTime) this.#frames = [];
    this.#frames.push({ mediaTime: frame.mediaTime, presentationTime: frame.presentationTime, expectedDisplayTime: frame.expectedDisplayTime });
    if (this.#frames.length > KEEP_FRAMES) this.#frames.shift();
    this.#estimate();
  }

  /** Measures at each frame `video` presents while it shows `track` (the newest video watched wins). */
  watch(video: HTMLVideoElement, track: MediaStreamTrack): void {
    this.#video = video;
    if (typeof video.requestVideoFrameCallback !== 'function') return;
    const showing = () => this.#video === video && track.readyState !== 'ended' && video.srcObject instanceof MediaStream && video.srcObject.getTracks().includes(track);
    const next = (_now: number, meta: VideoFrameCallbackMetadata) => {
      if (!showing()) return;
      this.presented(meta);
      video.requestVideoFrameCallback(next);
    };
    video.requestVideoFrameCallback(next);
  }

  #estimate(): void {
    let offset = Infinity;
    for (const frame of this.#frames) {
      const drawn = this.#lastDrawBy(frame.presentationTime);
      if (drawn !== undefined) offset = Math.min(offset, drawn - frame.mediaTime * 1000);
    }
    if (offset === Infinity || this.#frames.length < FIRST_SAMPLES) return;
    const delays: number[] = [];
    for (const frame of this.#frames) {
      // mediaTime + offset places the frame's draw within the capture's jitter (a few ms; draws are 40 ms
      // apart): the recorded draw nearest to it is the frame's own.
      const drawn = this.#nearestDrawBy(frame.mediaTime * 1000 + offset, frame.presentationTime);
      if (drawn !== undefined) delays.push(frame.expectedDisplayTime - drawn);
    }
    if (delays.length < FIRST_SAMPLES) return;
    delays.sort((a, b) => a - b);
    const median = delays[delays.length >> 1]!;
    this.#ms = Math.min(PRESENTATION_RANGE.max, Math.max(PRESENTATION_RANGE.min, median));
    this.#measured = true;
  }

  #nearestDrawBy(near: number, by: number): number | undefined {
    let best: number | undefined;
    for (const at of this.#draws) if (at <= by && (best === undefined || Math.abs(at - near) < Math.abs(best - near))) best = at;
    return best;
  }

  #lastDrawBy(at: number): number | undefined {
    for (let i = this.#draws.length - 1; i >= 0; i--) if (this.#draws[i]! <= at) return this.#draws[i];
    return undefined;
  }
}
