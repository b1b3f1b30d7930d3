// How many of a face's frames reach the visitor's <video>, in real time: each face draws a frame every 40 ms,
// and a frame lost on the way shows the mouth's first motion a frame later (Firefox, whose canvas capture at a
// set frame rate delivered 58 of 100 draws: its <video> presented 15 frames a second, 50-84 ms apart, and the
// trained face's first motion at the <video> was 40-62 ms, bar 50). Measured as a ratio of the frames the
// <video> presents (requestVideoFrameCallback) to the frames the face drew in the same 3 s, reported with the
// frame rate (npm run report); in every engine whose <video> reports a MediaStream's frames (WebKitGTK never
// does: skipped there).
import { expect } from '@open-wc/testing';
import { createDrawnFaceTrack } from '../../../src/palkit/client/media/face/drawn-face.js';
import type { FaceTimeline, FaceTrack } from '../../../src/palkit/client/media/face/face-track.js';
import { pageEngine } from '../../../src/palkit/client/media/page-engine.js';
import { createRigFace } from '../../../src/palkit/client/media/face/rig-face.js';
import { greyRigFiles } from '../../browser/helpers/rig-stand-ins.js';
import { reportFigure } from '../../helpers/figures.js';

const MEASURE_MS = 3000;
/** The goal: most draws reach the <video> (a few may fall between two of its paints on a busy machine). */
const SHOWN_SHARE = 0.85;

/** Shows `face` in a <video> for MEASURE_MS: the draws, and the frames the <video> presented meanwhile. */
async function shownFrames(
  make: (timeline: FaceTimeline) => Promise<FaceTrack>,
  busy = false,
): Promise<{ drawn: number; presented: number } | null> {
  let drawn = 0;
  // A page with work of its own: 2-9 ms of it every 10 ms, so that the face's draws come a little late or early.
  const work = busy
    ? setInterval(() => {
        const until = performance.now() + 2 + Math.random() * 7;
        while (performance.now() < until);
      }, 10)
    : undefined;
  const face = await make({ visemeNow: () => (drawn++, 'rest'), speaking: () => false });
  const video = Object.assign(document.createElement('video'), { muted: true, autoplay: true, playsInline: true });
  document.body.append(video);
  try {
    if (pageEngine() === 'webkit' || typeof video.requestVideoFrameCallback !== 'function') return null;
    video.srcObject = new MediaStream([face.track]);
    await video.play();
    // From the first frame presented: the <video> starts a few frames after the track.
    await new Promise((resolve) => video.requestVideoFrameCallback(resolve));
    let presented = 0;
    const next = () => video.requestVideoFrameCallback(() => (presented++, next()));
    next();
    drawn = 0;
    await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
    return { drawn, presented };
  } finally {
    clearInterval(work);
    face.stop();
    video.remove();
  }
}

describe("a face's frames at the <video>", () => {
  const faces: Array<[string, (timeline: FaceTimeline) => Promise<FaceTrack>]> = [
    ['Ada', async (timeline) => createDrawnFaceTrack(timeline, { reducedMotion: true })],
    [
      'a trained face',
      async (timeline) => createRigFace('/faces/f1/rig.json', timeline, { fetch: (await greyRigFiles()).fetch, reducedMotion: true }),
    ],
  ];
  for (const [name, make] of faces) {
    for (const busy of [false, true]) {
      it(`shows nearly every frame ${name} draws${busy ? ' on a page busy with work of its own' : ''}`, async function () {
        this.timeout(20_000);
        const counts = await shownFrames(make, busy);
        if (!counts) this.skip();
        const share = counts!.presented / counts!.drawn;
        console.log(
          `${name}${busy ? ', busy page' : ''}: the <video> presented ${counts!.presented} of ${counts!.drawn} frames drawn in ${MEASURE_MS / 1000} s (${Math.round(share * 100)} %)`,
        );
        // Reported against a goal, not asserted: how many frames a busy page's <video> presents depends on the
        // machine (a shared 2-core box gave 70-97 %). A lost frame shows a turn's first motion a frame late,
        // which the lip-sync rows hold to their bar. Asserted: the face reaches the <video> at all.
        const row = `${pageEngine()}, ${name}${busy ? ', busy page' : ''}`;
        reportFigure({
          name: `${row}: frames presented`,
          value: share * 100,
          unit: '%',
          better: 'higher',
          goal: `≥ ${SHOWN_SHARE * 100}`,
          met: share >= SHOWN_SHARE,
        });
        reportFigure({
          name: `${row}: frame rate at the <video>`,
          value: counts!.presented / (MEASURE_MS / 1000),
          unit: 'fps',
          better: 'higher',
        });
        expect(counts!.presented, 'frames presented').to.be.greaterThan(0);
      });
    }
  }
});
