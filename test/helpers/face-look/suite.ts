// What the PAL's face looks like at the <video> a visitor sees (issue 51, point 7), one engine per file
// (test/realtime/e2e/face-look-<engine>.test.ts; a file whose engine PALKIT_BROWSERS does not select skips),
// for a face the service trained from the shared portrait (a photo) and one trained from a 12 s pan-and-zoom
// clip made from it, on a quiet machine and on a loaded one (a spinning process per core during the call,
// as the lip-sync rows). The PAL says its greeting and answers a typed question (about 14 s of speech: today's
// faces blink every ~5 s, the rebuilt ones every 2–8 s); every frame presented is kept (a crop around the
// face), FaceMesh and the face-description model look at each (helpers/face-look/see.ts), and the figures
// (a)–(e) are printed and asserted against the bars of helpers/face-look/verdict.ts.
// With PALKIT_FACE_LOOK_RECORDINGS=<folder>, each call's frames are kept there (helpers/face-look/recording.ts)
// for scripts/face-look.ts to draw contact sheets from or to analyse again.
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { portraitClip, portraitPhoto } from '../face-clips.js';
import { createPal, startWorld, type World } from '../e2e-world.js';
import { rigMouth } from '../lip-sync.js';
import { loadTheCores } from '../lip-sync-suite.js';
import { selectedEngines, type Engine, type VisitorBrowser } from '../visitor.js';
import { lookAtCall, openFaceLookBrowser } from './call.js';
import { lookAtFrames } from './looked.js';
import { saveRecording } from './recording.js';
import { trainFaceFrom } from './train.js';
import { assertLook, describeLook } from './verdict.js';

const GREETING =
  'Hello there, I read all the notes you sent, and I think it is a good idea to start with the third one. Shall we look at it together, one page at a time?';

export function faceLookSuite(engine: Engine): void {
  // Each row costs 5-9 minutes here (FaceMesh on every frame presented, in WebAssembly on the CPU): twelve of
  // them do not fit CI's time beside the rest of the tier, so they run when asked (npm run face-look draws the sheets).
  const skip = !process.env.PALKIT_FACE_LOOK
    ? 'the face-look rows run when PALKIT_FACE_LOOK=1 (5-9 min a row)'
    : !selectedEngines(process.env.PALKIT_BROWSERS).includes(engine) && `PALKIT_BROWSERS does not select ${engine}`;
  describe(`what the face looks like at the <video> in ${engine}`, { timeout: 3_600_000, skip }, () => {
    let world: World;
    let browser: VisitorBrowser;
    const faces: Array<{ name: string; palId: string; box: Parameters<typeof lookAtCall>[3] }> = [];
    const table: string[] = [];

    before(async () => {
      world = await startWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '170' }, { chromium: false });
      const common = { custom_greeting: GREETING, disclosure_type: 'off' };
      for (const [name, media] of [
        ['photo face', { body: portraitPhoto('jpg'), contentType: 'image/jpeg', path: '/face.jpg' }],
        ['clip face', { body: portraitClip(12), contentType: 'video/mp4', path: '/face.mp4' }],
      ] as const) {
        const { faceId, rig } = await trainFaceFrom(world, `Look ${name}`, media);
        faces.push({
          name,
          palId: await createPal(world, { pal_name: `Look ${name}`, default_face_id: faceId, ...common }),
          box: rigMouth(rig),
        });
      }
      browser = await openFaceLookBrowser(engine);
    });
    after(async () => {
      console.log(`# face look in ${engine}:\n${table.map((line) => `#   ${line}`).join('\n')}`);
      await browser?.close();
      await world?.close();
    });

    for (const face of ['photo face', 'clip face']) {
      for (const loaded of [false, true]) {
        const name = `${engine}, ${face}, ${loaded ? `loaded (${availableParallelism()} spinning processes)` : 'quiet'}`;
        it(name, async () => {
          const { palId, box } = faces.find((f) => f.name === face)!;
          const load = loaded ? loadTheCores() : null;
          let call;
          try {
            call = await lookAtCall(world, browser, palId, box, { label: `${engine}-${face.replace(' ', '-')}` });
          } finally {
            load?.stop();
          }
          const { figures } = await lookAtFrames(call.frames);
          const folder = process.env.PALKIT_FACE_LOOK_RECORDINGS;
          if (folder) saveRecording(folder, name, call, figures);
          const line = `${name}: ${call.frames.length} frames kept of ${call.presented} presented (crop ${call.crop.side} px of the ${call.video.width}×${call.video.height} <video>)\n${describeLook(figures).join('\n')}`;
          table.push(line.replace(/\n/g, '\n#     '));
          console.log(`# ${line.replace(/\n/g, '\n#   ')}`);
          assertLook(name, figures);
        });
      }
    }
  });
}
