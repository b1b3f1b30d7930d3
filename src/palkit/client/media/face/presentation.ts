// How long a face's drawing takes to reach the visitor's <video> (the canvas's capture, the stream's delivery,
// the element's paint), measured while the call runs: a face asks the voice for the shape this far ahead, so
// the visitor sees it when they hear it. Loaded with the faces, after the call starts.
//
// Measured where the <video> calls requestVideoFrameCallback for its MediaStream (Chromium, Firefox): each
// presented frame says when it was handed to the compositor (presentationTime) and when it is (expected to be)
// on the screen. A frame is drawn before it is presented, and the draw it shows is the last one before its
// presentation, when it is presented before the next draw: in Chromium a frame is presented as it is captured
// (within a millisecond of its draw on an idle page); in Firefox at the paint that shows it, most often before
// the next draw (a frame shown after it is matched to a later draw, and its short delay falls out of the median
// while such frames are fewer than half). In some Chromium calls here most frames were presented after the next
// draw: the look-ahead then measured 15-20 ms where other calls measured 50-55 (a frame short: the trained face
// then trailed the voice by 45 ms at the <video> once, loaded; matching by mediaTime, below, gave 37-53 ms in
// Chromium, but no match by the last draw can tell a frame from the one before when all are presented late). A frame's
// delay is its display time less that draw's time (Firefox gives no display time, only the paint's: there the
// frame is on the screen a refresh later); the look-ahead is the median of the last 40 frames' delays,
// within a sane range. (Not matched by mediaTime, which names the frame: in Firefox its timeline follows the
// media graph's clock, which runs off the audio device's, 0.88× the page's here in a call, and frames matched
// by it in a call drifted the look-ahead to the range's top.) Where no frame is reported (WebKitGTK never
// calls it for a MediaStream), and until enough are, the engine's default.

/** What this needs of requestVideoFrameCallback's metadata (ms on the page's clock). */
export interface PresentedFrame {
  presentationTime: number;
  expectedDisplayTime: number;
}

/** The look-ahead is kept within this range (ms): outside it a frame was matched wrongly or the page stalled. */
export const PRESENTATION_RANGE = { min: 10, max: 150 } as const;

/**
 * The look-ahead where the <video> reports no frames, by engine (ms). WebKit's is measured so (no frame
 * callbacks there): a canvas frame is in the <video> at the next animation frame (1 ms after its draw at the
 * median, 5 at p90, read from the <video> at each animation frame), and on the screen a refresh (17 ms) later.
 * Chromium's and Firefox's, for a call's first frames until their measurement takes over (Chromium's for the
 * whole call: see MEASURED_BY_FRAMES), are what their lip sync at the <video> (test/realtime/e2e/lip-sync*.test.ts)
 * asked for with a fixed look-ahead. Chromium's mean lag (mouth after voice) was, at 60 ms, -6 ms for Ada and
 * -14 for the trained face (4 rows each); at 40 ms, +7 for Ada (5 rows) and +20 for the trained face (5 rows,
 * one at +50, past the ±40 bar): each 20 ms of look-ahead moved the lag 13-34 ms, and 50 ms puts both near 0.
 * 60 ms left Firefox's on time.
 */
export const PRESENTATION_DEFAULTS = { chromium: 50, firefox: 60, webkit: 20 } as const;

/**
 * Where the presented frames replace the default. Not in Chromium: in some calls there most frames are
 * presented after the next draw, and the match by the last draw then measures a frame short (15-20 ms where
 * other calls measured 50-55; its trained face trailed the voice by 45 ms at the <video> once, loaded), so
 * its default (its fixed look-ahead's lip sync, measured) holds until frames can be told apart. Nor in
 * WebKit, whose <video> never reports them.
 */
export const MEASURED_BY_FRAMES = { chromium: false, firefox: true, webkit: false } as const;

/** Draws and presented frames kept: about 2.5 and 1.6 s of a face drawn at 25 fps. */
const KEEP_DRAWS = 64;
const KEEP_FRAMES = 40;
/** A screen refresh at 60 Hz (ms): how long after the paint that takes it a frame is on the screen. */
const REFRESH_MS = 1000 / 60;
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
  /** The recent frames' times from draw to display. */
  #delays: number[] = [];
  #ms: number;
  #measured = false;
  #video: HTMLVideoElement | null = null;

  constructor(
    readonly defaultMs: number = PRESENTATION_DEFAULTS[pageEngine()],
    /** Whether the <video>'s presented frames are measured (watch()); the default where they are sound. */
    readonly byFrames: boolean = MEASURED_BY_FRAMES[pageEngine()],
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

  /** A frame drawn at `at` (the page's clock, performance.now(), as the frames' times: when its shape was asked for). */
  drawn(at: number): void {
    this.#draws.push(at);
    if (this.#draws.length > KEEP_DRAWS) this.#draws.shift();
  }

  /** A frame the <video> presented. */
  presented(frame: PresentedFrame): void {
    const drawn = this.#lastDrawBy(frame.presentationTime);
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
    if (!this.byFrames || typeof video.requestVideoFrameCallback !== 'function') return;
    const showing = () => this.#video === video && track.readyState !== 'ended' && video.srcObject instanceof MediaStream && video.srcObject.getTracks().includes(track);
    const next = (_now: number, meta: VideoFrameCallbackMetadata) => {
      if (!showing()) return;
      this.presented(meta);
      video.requestVideoFrameCallback(next);
    };
    video.requestVideoFrameCallback(next);
  }

  #lastDrawBy(at: number): number | undefined {
    for (let i = this.#draws.length - 1; i >= 0; i--) if (this.#draws[i]! <= at) return this.#draws[i];
    return undefined;
  }
}
