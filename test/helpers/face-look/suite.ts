// What the PAL's face looks like at the <video> a visitor sees (issue 51, point 7), in Chromium, Firefox and
// WebKit (those PALKIT_BROWSERS selects), for a face the service trained from the shared portrait (a photo) and
// one trained from a 12 s pan-and-zoom clip made from it, on a quiet machine and on a loaded one (a spinning
// process per core during the call, as the lip-sync rows). Which rows run: helpers/face-look/rows.ts. One
// service serves every engine's calls, so each face is trained once a run. The PAL says its greeting and
// answers a typed question (about 14 s of speech, two blinks or more); every frame presented is kept (a crop
// around the face), FaceMesh looks at each and the face-description model at those (e) needs
// (helpers/face-look/looked.ts), and the figures (a)–(e) are printed, reported to the real-time results and
// asserted against the bars of helpers/face-look/verdict.ts.
// With PALKIT_FACE_LOOK_RECORDINGS=<folder>, each call's frames are kept there (helpers/face-look/recording.ts)
// for scripts/face-look.ts to draw contact sheets from or to analyse again.
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { portraitClip, portraitPhoto } from '../face-clips.js';
import { reportFigure } from '../figures.js';
import { createPal, startWorld, type World } from '../e2e-world.js';
import { rigMouth } from '../lip-sync.js';
import { loadTheCores } from '../lip-sync-suite.js';
import { selectedEngines, type Engine, type VisitorBrowser } from '../visitor.js';
import { lookAtCall, openFaceLookBrowser } from './call.js';
import { lookAtFrames } from './looked.js';
import { saveRecording } from './recording.js';
import { LOOK_FACES, rowSkipped, type LookFace } from './rows.js';
import { trainFaceFrom } from './train.js';
import { assertLook, describeLook, reportLook } from './verdict.js';

const GREETING =
  'Hello there, I read all the notes you sent, and I think it is a good idea to start with the third one. Shall we look at it together, one page at a time?';
const MEDIA: Record<LookFace, () => { body: Buffer; contentType: string; path: string }> = {
  'photo face': () => ({ body: portraitPhoto('jpg'), contentType: 'image/jpeg', path: '/face.jpg' }),
  'clip face': () => ({ body: portraitClip(12), contentType: 'video/mp4', path: '/face.mp4' }),
};

export function faceLookSuite(engines: Engine[] = ['chromium', 'firefox', 'webkit']): void {
  const selected = selectedEngines(process.env.PALKIT_BROWSERS);
  const rows = engines.flatMap((engine) =>
    LOOK_FACES.flatMap((face) =>
      [false, true].map((loaded) => ({
        engine,
        face,
        loaded,
        skip: !selected.includes(engine) ? `PALKIT_BROWSERS does not select ${engine}` : rowSkipped(engine, face, loaded),
      })),
    ),
  );
  const running = rows.filter((r) => !r.skip);
  const trained = LOOK_FACES.filter((face) => running.some((r) => r.face === face));

  describe('what the face looks like at the <video>', { timeout: 3_600_000 }, () => {
    let world: World | undefined;
    const faces = new Map<LookFace, { palId: string; box: Parameters<typeof lookAtCall>[3] }>();
    const table: string[] = [];

    before(async () => {
      if (running.length === 0) return;
      world = await startWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '170' }, { chromium: false });
      const common = { custom_greeting: GREETING, disclosure_type: 'off' };
      for (const face of trained) {
        const { faceId, rig } = await trainFaceFrom(world, `Look ${face}`, MEDIA[face]());
        const palId = await createPal(world, { pal_name: `Look ${face}`, default_face_id: faceId, ...common });
        faces.set(face, { palId, box: rigMouth(rig) });
      }
    });
    after(async () => {
      if (table.length) console.log(`# face look:\n${table.map((line) => `#   ${line}`).join('\n')}`);
      await world?.close();
    });

    for (const engine of engines) {
      const mine = rows.filter((r) => r.engine === engine);
      const skip = mine.every((r) => r.skip) && (mine[0]!.skip as string);
      describe(`in ${engine}`, { skip }, () => {
        let browser: VisitorBrowser | undefined;
        before(async () => {
          browser = await openFaceLookBrowser(engine);
        });
        after(async () => {
          await browser?.close();
        });
        for (const { face, loaded, skip } of mine) {
          const load = loaded ? `loaded (${availableParallelism()} spinning processes)` : 'quiet';
          const name = `${engine}, ${face}, ${load}`;
          it(name, { skip }, async () => {
            const { palId, box } = faces.get(face)!;
            const spinning = loaded ? loadTheCores() : null;
            let call;
            try {
              call = await lookAtCall(world!, browser!, palId, box, { label: `${engine}-${face.replace(' ', '-')}` });
            } finally {
              spinning?.stop();
            }
            const { figures } = await lookAtFrames(call.frames);
            const folder = process.env.PALKIT_FACE_LOOK_RECORDINGS;
            if (folder) saveRecording(folder, name, call, figures);
            const line = `${name}: ${call.frames.length} frames kept of ${call.presented} presented (crop ${call.crop.side} px of the ${call.video.width}×${call.video.height} <video>)\n${describeLook(figures).join('\n')}`;
            table.push(line.replace(/\n/g, '\n#     '));
            console.log(`# ${line.replace(/\n/g, '\n#   ')}`);
            const row = `${engine}, ${face}, ${loaded ? 'loaded' : 'quiet'}`;
            reportLook(row, figures);
            // Where the engine says how many frames it presented: how many of them the capture kept.
            if (call.presented > 0)
              reportFigure({
                name: `${row}: frames kept of those presented`,
                value: (100 * call.frames.length) / call.presented,
                unit: '%',
                better: 'higher',
              });
            assertLook(name, figures);
          });
        }
      });
    }
  });
}
