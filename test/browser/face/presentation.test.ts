// How late a face's frames reach the visitor's <video> (media/face/presentation.ts), measured from the frames the
// <video> reports, on a clock the test drives: frames drawn every 40 ms, each composited and shown after delays
// the test sets, reported as requestVideoFrameCallback reports them.
import { expect } from '@open-wc/testing';
import { createDrawnFaceTrack } from '../../../src/palkit/client/media/face/drawn-face.js';
import {
  FIRST_SAMPLES,
  PRESENTATION_DEFAULTS,
  PRESENTATION_RANGE,
  PresentationDelay,
  type PresentedFrame,
} from '../../../src/palkit/client/media/face/presentation.js';
import { pageEngine } from '../../../src/palkit/client/media/page-engine.js';
import { show } from '../../../src/palkit/client/media/shown-tracks.js';
import { TestClock } from '../helpers/test-clock.js';
import { waitFor } from '../helpers/wait-for.js';

interface Path {
  /** From the draw to the frame's presentation to the compositor (when its callback can run), ms. */
  composite: number;
  /** From the draw to the frame on the screen (expectedDisplayTime), ms. */
  display: number;
}

/**
 * Draws a frame every 40 ms on `clock` for `ms`, each presented along `path(i)`; with `mediaClock`, each frame
 * carries a media time: its capture's, 2 ms after its draw, on a clock that many ms behind the page's.
 */
async function run(
  clock: TestClock,
  delay: PresentationDelay,
  ms: number,
  path: (i: number) => Path | null,
  mediaClock?: number,
): Promise<void> {
  let i = 0;
  const timer = clock.setInterval(() => {
    const drawnAt = clock.now();
    delay.drawn(drawnAt);
    const p = path(i++);
    if (!p) return; // a frame dropped
    const frame: PresentedFrame = {
      presentationTime: drawnAt + p.composite,
      expectedDisplayTime: drawnAt + p.display,
      ...(mediaClock !== undefined ? { mediaTime: (drawnAt + 2 - mediaClock) / 1000 } : {}),
    };
    clock.setTimeout(() => delay.presented(frame), p.composite);
  }, 40);
  await clock.advance(ms);
  clock.clear(timer);
}

describe("the presentation delay of a face's frames", () => {
  it("is the engine's default until the <video> has reported enough frames", async () => {
    const clock = new TestClock(10_000);
    const delay = new PresentationDelay();
    expect(delay.ms).to.equal(PRESENTATION_DEFAULTS[pageEngine()]);
    await run(clock, delay, (FIRST_SAMPLES - 1) * 40, () => ({ composite: 1, display: 25 })); // a frame short
    expect(delay.measured).to.equal(false);
    expect(delay.ms).to.equal(PRESENTATION_DEFAULTS[pageEngine()]);
  });

  it("is the time from a frame's draw to its display, as Chromium reports its frames", async () => {
    // Chromium: a frame is composited as soon as it is captured, and on the screen at the next vsync.
    const clock = new TestClock(10_000);
    const delay = new PresentationDelay(60);
    await run(clock, delay, 2_000, (i) => ({ composite: 0.3, display: 22 + (i % 3) * 4 }));
    expect(delay.measured).to.equal(true);
    expect(delay.ms).to.be.closeTo(26, 0.01);
  });

  it('matches each frame to its draw by its media time, as Chromium reports its frames, also when most are presented after the next draw', async () => {
    const clock = new TestClock(10_000);
    // One frame in ten presented as it is captured (2.5 ms after its draw), the others after the next draw;
    // all on the screen 62 ms after their draw. Matched to the last draw before their presentation, most
    // would measure 22 ms.
    const delay = new PresentationDelay(30, 'media time');
    await run(clock, delay, 2_000, (i) => ({ composite: i % 10 === 3 ? 2.5 : 45, display: 62 }), 9_000);
    expect(delay.measured).to.equal(true);
    expect(delay.ms).to.be.closeTo(62, 0.01);
    // Frames without a media time are matched to the last draw before their presentation.
    const plain = new PresentationDelay(30, 'media time');
    await run(clock, plain, 2_000, () => ({ composite: 1, display: 26 }));
    expect(plain.ms).to.be.closeTo(26, 0.01);
  });

  it('is not moved by the frames composited after the next draw, as some are in Firefox', async () => {
    // Firefox: a frame is presented at the paint that shows it, 35 ms after its draw here; one in three waits
    // for a later paint, after the next draw (55 ms; the last draw before it is then the next frame's, 15 ms).
    const clock = new TestClock(10_000);
    const delay = new PresentationDelay(60);
    // Firefox reports the paint's time as the display time: the screen shows the frame a refresh (60 Hz) later.
    await run(clock, delay, 2_000, (i) => (i % 3 === 0 ? { composite: 55, display: 55 } : { composite: 35, display: 35 }));
    expect(delay.ms).to.be.closeTo(35 + 1000 / 60, 0.01);
  });

  it('follows the pipeline as it changes, by the median of recent frames (a stalled frame does not move it)', async () => {
    const clock = new TestClock(10_000);
    const delay = new PresentationDelay(60);
    await run(clock, delay, 2_000, (i) => ({ composite: 1, display: i % 10 === 5 ? 140 : 30 }));
    expect(delay.ms).to.be.closeTo(30, 0.01);
    await run(clock, delay, 2_000, () => ({ composite: 1, display: 45 }));
    expect(delay.ms).to.be.closeTo(45, 0.01);
  });

  it('is kept within a sane range', async () => {
    const clock = new TestClock(10_000);
    const delay = new PresentationDelay(60);
    await run(clock, delay, 2_000, () => ({ composite: 1, display: 900 }));
    expect(delay.ms).to.equal(PRESENTATION_RANGE.max);
    await run(clock, delay, 2_000, () => ({ composite: 0, display: 1 }));
    expect(delay.ms).to.equal(PRESENTATION_RANGE.min);
  });

  it("is measured at the <video> the elements show the face's track in, while it shows it", async () => {
    const clock = new TestClock(10_000);
    const delay = new PresentationDelay(60, 'last draw', 'frame callbacks');
    // On the test's clock: the face's draws are stamped by it (they stand still between the test's steps).
    const face = createDrawnFaceTrack(
      { visemeNow: () => 'rest', speaking: () => false },
      { reducedMotion: true, presentation: delay, clock: () => clock.now() },
    );
    // A <video> whose frame callbacks the test calls (the real ones come at the engine's pace, and WebKitGTK
    // never calls them for a MediaStream).
    const video = document.createElement('video');
    const callbacks: VideoFrameRequestCallback[] = [];
    video.requestVideoFrameCallback = (callback) => callbacks.push(callback);
    expect(face.measuring(), 'no <video> shows it yet').to.equal(false);
    show(video, new MediaStream([face.track]));
    expect(callbacks.length, 'the face watches the <video> showing its track').to.equal(1);
    expect(face.measuring(), "the <video>'s frames are being counted").to.equal(true);
    // Frames as Chromium reports them, 33 ms from draw to screen, drawn on the test's clock.
    for (let i = 0; i < 20; i++) {
      await clock.advance(40);
      delay.drawn(clock.now());
      const meta = { presentationTime: clock.now() + 1, expectedDisplayTime: clock.now() + 33 };
      callbacks.shift()!(clock.now() + 1, meta as VideoFrameCallbackMetadata);
    }
    expect(delay.ms).to.be.closeTo(33, 0.01);
    expect(face.measuring(), 'enough frames reported').to.equal(false);
    // Once the track is no longer shown there, the face asks for no more of its frames.
    face.stop();
    callbacks.shift()!(clock.now(), { presentationTime: clock.now(), expectedDisplayTime: clock.now() } as VideoFrameCallbackMetadata);
    expect(callbacks.length).to.equal(0);
  });

  it('is measured in WebKit from the frames the <video> counts, read at each animation frame', () => {
    const paints: Array<(now: number) => void> = [];
    const delay = new PresentationDelay(20, 'last draw', 'frame count', (callback) => paints.push(callback));
    // A <video> whose frame count the test sets (WebKitGTK counts a stream's frames, and never calls
    // requestVideoFrameCallback for one).
    const video = document.createElement('video');
    let counted = 0;
    Object.defineProperty(video, 'getVideoPlaybackQuality', { value: () => ({ totalVideoFrames: counted }) });
    const canvas = document.createElement('canvas');
    canvas.getContext('2d');
    const track = canvas.captureStream().getVideoTracks()[0]!;
    video.srcObject = new MediaStream([track]);
    delay.watch(video, track);
    // Drawn every 40 ms, animation frames every 10 ms: each frame is counted at the animation frame 25 ms
    // after its draw, so painted then and on the screen a refresh later.
    let time = 10_000;
    for (let i = 0; i < 20; i++, time += 40) {
      delay.drawn(time + 5);
      for (let paint = 1; paint <= 4; paint++) {
        if (paint === 3) counted++;
        paints.shift()!(time + paint * 10);
      }
    }
    expect(delay.measured).to.equal(true);
    expect(delay.ms).to.be.closeTo(25 + 1000 / 60, 0.01);
    // A stretch with no frame counted does not move it.
    for (let paint = 0; paint < 10; paint++) paints.shift()!(time + paint * 10);
    expect(delay.ms).to.be.closeTo(25 + 1000 / 60, 0.01);
    // Once the track is no longer shown there, no more animation frames are asked for.
    track.stop();
    paints.shift()!(time + 100);
    expect(paints.length).to.equal(0);
  });

  it("keeps the default where the engine's frames are not measured", () => {
    const delay = new PresentationDelay(40, null);
    const video = document.createElement('video');
    const callbacks: VideoFrameRequestCallback[] = [];
    video.requestVideoFrameCallback = (callback) => callbacks.push(callback);
    const canvas = document.createElement('canvas');
    canvas.getContext('2d');
    const track = canvas.captureStream().getVideoTracks()[0]!;
    video.srcObject = new MediaStream([track]);
    delay.watch(video, track);
    expect(callbacks.length, 'no frame is asked for').to.equal(0);
    expect(delay.ms).to.equal(40);
    track.stop();
  });

  it('keeps the default where the <video> has no frame callback', () => {
    const delay = new PresentationDelay(45, 'last draw', 'frame callbacks');
    const video = document.createElement('video');
    Object.defineProperty(video, 'requestVideoFrameCallback', { value: undefined });
    const canvas = document.createElement('canvas');
    canvas.getContext('2d');
    const track = canvas.captureStream().getVideoTracks()[0]!;
    video.srcObject = new MediaStream([track]);
    delay.watch(video, track);
    expect(delay.ms).to.equal(45);
    track.stop();
  });

  it('sets how far ahead the face asks for the shape to draw', async () => {
    // Measured at 25 ms (the old face asked 60 ms ahead, whatever the engine).
    const clock = new TestClock(10_000);
    const delay = new PresentationDelay(60);
    await run(clock, delay, 2_000, () => ({ composite: 1, display: 25 }));
    const asked: number[] = [];
    const face = createDrawnFaceTrack(
      { visemeNow: (aheadMs = 0) => (asked.push(aheadMs), 'rest'), speaking: () => false },
      { reducedMotion: true, presentation: delay },
    );
    await waitFor(() => asked.length > 0, { what: 'a frame drawn' });
    face.stop();
    expect(asked[0]).to.be.closeTo(25, 0.01);
  });
});
