// `npm run face-look -- [--engine chromium|firefox|webkit] [--out docs] [--from <folder>] [--keep <folder>]
// [--faces photo,clip,ada]`:
// contact sheets of the PAL's faces as a visitor sees them (issue 51, point 8), and call screenshots.
// For a face trained from the shared portrait (photo), one trained from a 12 s pan-and-zoom clip made from it,
// and Ada: a call in the engine (default Chromium) at 1366 px, every frame of its <video> kept around the face
// and looked at by the face-look instrument (test/helpers/face-look/), and a sheet of four frames — rest, the
// widest open, mid-blink (the eyes' least aspect), and the frame the instrument liked least (its worst
// measure against its bar; the cell (a) found worst is outlined) — with the figures printed; then a call at
// 390 px; screenshots of the page at both while the PAL speaks. Written to <out>/face-look-<face>.png and
// <out>/face-look-call-<face>-<width>.png (default out: docs). --from <folder>: sheets from recordings kept by a
// run with --keep <folder> or by the real-time files (PALKIT_FACE_LOOK_RECORDINGS), no calls made (--again: the
// kept frames looked at afresh, after a change to the instrument).
// Against another branch: check it out (or `git worktree add`), `npm ci && npm run build`, and run this there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LookFigures } from '../test/helpers/face-look/analyse.js';
import { TaintedFace, lookAtCall, openFaceLookBrowser, type CapturedFrame } from '../test/helpers/face-look/call.js';
import { writePng } from '../test/helpers/face-look/files.js';
import { lookAtFrames } from '../test/helpers/face-look/looked.js';
import { loadRecording, recordingName, saveRecording } from '../test/helpers/face-look/recording.js';
import { trainFaceFrom } from '../test/helpers/face-look/train.js';
import { THRESHOLDS, describeLook, judgeLook } from '../test/helpers/face-look/verdict.js';
import { createPal, startWorld } from '../test/helpers/e2e-world.js';
import { portraitClip, portraitPhoto } from '../test/helpers/face-clips.js';
import { ADA_MOUTH, rigMouth, type MouthBox } from '../test/helpers/lip-sync.js';
import { DESKTOP, PHONE, type Engine } from '../test/helpers/visitor.js';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'chromium' },
    out: { type: 'string', default: 'docs' },
    from: { type: 'string' },
    keep: { type: 'string' },
    again: { type: 'boolean', default: false },
    faces: { type: 'string', default: 'photo,clip,ada' },
  },
});
const engine = args.engine as Engine;
// --faces photo,clip: only these faces' calls (each costs minutes of FaceMesh on this machine).
const wanted = args.faces!.split(',');
const out = args.out!;
mkdirSync(out, { recursive: true });
const GREETING =
  'Hello there, I read all the notes you sent, and I think it is a good idea to start with the third one. Shall we look at it together, one page at a time?';

/** The frame the instrument liked least: its worst measure against that measure's bar. */
function leastLiked(figures: LookFigures): { index: number; why: string } {
  let worst = { index: figures.restIndex, score: -Infinity, why: '' };
  for (const r of figures.readings) {
    const scores: Array<[number, string]> = [
      [r.outside / THRESHOLDS.outsideMax, `(a) ${r.outside.toFixed(1)} levels outside the mouth, jaw and eyelids`],
    ];
    // Only the frames (e) looked at have a similarity (NaN in memory, null once kept on disk).
    if (typeof r.same === 'number' && !Number.isNaN(r.same))
      scores.push([(1 - r.same) / (1 - THRESHOLDS.same), `(e) similarity ${r.same.toFixed(2)} to rest`]);
    if (r.inside && r.opening >= THRESHOLDS.opening)
      scores.push([
        r.inside.voidShare / THRESHOLDS.voidShare,
        `(b) ${(r.inside.voidShare * 100).toFixed(0)} % of the inside a flat void, teeth ${(r.inside.toothShare * 100).toFixed(0)} %`,
      ]);
    for (const [score, why] of scores) if (score > worst.score) worst = { index: r.index, score, why };
  }
  return worst;
}

/** One sheet: four tiles of the kept frames, twice their size, labelled; the worst cell outlined on the last. */
function sheet(name: string, frames: CapturedFrame[], figures: LookFigures, file: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'face-look-sheet-'));
  try {
    const widest = figures.inside.widestIndex;
    const byEye = [...figures.readings].sort((p, q) => p.eye - q.eye)[0]!;
    const blink = figures.blinks.midIndex ?? byEye.index;
    const least = leastLiked(figures);
    const reading = (index: number) => figures.readings.find((r) => r.index === index);
    const tiles: Array<[number, string]> = [
      [figures.restIndex, 'rest'],
      [widest, `widest open (${((reading(widest)?.opening ?? 0) * 100).toFixed(1)} % of the face)`],
      [
        blink,
        figures.blinks.midIndex === null
          ? `no blink found: eyes least open (${((byEye.eye / figures.blinks.restAspect) * 100).toFixed(0)} %)`
          : `mid-blink (eyes at ${((byEye.eye / figures.blinks.restAspect) * 100).toFixed(0)} % of rest)`,
      ],
      [least.index, `liked least: ${least.why}`],
    ];
    const files = tiles.map(([index, label], k) => {
      const path = join(dir, `${k}.png`);
      writePng(path, frames[index]!.image);
      const at = reading(index)?.outsideAt;
      const outline =
        k === 3 && at && least.why.startsWith('(a)')
          ? [
              '-fill',
              'none',
              '-stroke',
              'red',
              '-strokewidth',
              '2',
              '-draw',
              `rectangle ${at[0] * 2 - 14},${at[1] * 2 - 14} ${at[0] * 2 + 14},${at[1] * 2 + 14}`,
            ]
          : [];
      // (ImageMagick reads % in a text as an escape: doubled.)
      const text = `${label}\nframe ${index}, ${Math.round(frames[index]!.at - frames[0]!.at)} ms`.replace(/%/g, '%%');
      execFileSync('convert', [
        path,
        '-scale',
        '200%',
        ...outline,
        '-stroke',
        'none',
        '-fill',
        'black',
        '-gravity',
        'south',
        '-background',
        'white',
        '-splice',
        '0x34',
        '-pointsize',
        '13',
        '-annotate',
        '+0+4',
        text,
        path,
      ]);
      return path;
    });
    const verdict = judgeLook(figures);
    const word = (ok: boolean | null) => (ok === null ? 'not judged' : ok ? 'holds' : 'FAILS');
    const title = `${name}: (a) ${word(verdict.outside)} ${figures.outside.max.toFixed(0)} levels · (b) ${word(verdict.inside)} void ${(figures.inside.voidShare * 100).toFixed(0)} %, teeth ${(figures.inside.toothShare * 100).toFixed(0)} % · (c) ${word(verdict.chin)} r ${figures.chin.correlation.toFixed(2)}, slope ${figures.chin.slope.toFixed(2)} · (d) ${word(verdict.blink)} ${figures.blinks.count} blinks · (e) ${word(verdict.same)} ${figures.same.min.toFixed(2)}`;
    execFileSync('convert', [
      ...files,
      '+append',
      '-gravity',
      'northwest',
      '-background',
      'white',
      '-splice',
      '0x24',
      '-pointsize',
      '13',
      '-annotate',
      '+6+5',
      title.replace(/%/g, '%%'),
      file,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(name: string, figures: LookFigures): void {
  console.log(`${name}:\n  ${describeLook(figures).join('\n  ')}`);
}

if (args.from) {
  for (const json of readdirSync(args.from).filter((f) => f.endsWith('.json'))) {
    const base = join(args.from, json.slice(0, -5));
    if (!existsSync(`${base}.rgb`)) continue;
    const { name, frames, figures: kept } = loadRecording(base);
    // --again: the kept frames looked at afresh (after a change to the instrument).
    const figures = args.again ? (await lookAtFrames(frames)).figures : kept;
    report(name, figures);
    sheet(name, frames, figures, join(out, `face-look-${recordingName(name)}.png`));
  }
} else {
  const world = await startWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '170' }, { chromium: false });
  const browser = await openFaceLookBrowser(engine);
  try {
    const common = { custom_greeting: GREETING, disclosure_type: 'off' };
    const faces: Array<{ slug: string; name: string; palId: string; box: MouthBox }> = [];
    for (const [slug, name, media] of [
      ['photo', 'photo face', { body: portraitPhoto('jpg'), contentType: 'image/jpeg', path: '/face.jpg' }],
      ['clip', 'clip face', { body: portraitClip(12), contentType: 'video/mp4', path: '/face.mp4' }],
    ] as const) {
      const { faceId, rig } = await trainFaceFrom(world, `Look ${name}`, media);
      faces.push({
        slug,
        name,
        palId: await createPal(world, { pal_name: `Look ${name}`, default_face_id: faceId, ...common }),
        box: rigMouth(rig),
      });
    }
    faces.push({
      slug: 'ada',
      name: 'Ada',
      palId: await createPal(world, { pal_name: 'Look Ada', default_face_id: 'rpalkitada', ...common }),
      box: ADA_MOUTH,
    });
    for (const face of faces.filter((f) => wanted.includes(f.slug))) {
      const name = `${engine}, ${face.name}`;
      let call;
      try {
        call = await lookAtCall(world, browser, face.palId, face.box, { label: face.slug, screenshots: 3 });
      } catch (error) {
        if (!(error instanceof TaintedFace)) throw error;
        console.log(`${name}: no sheet: ${error.message}`);
        continue;
      }
      const { figures } = await lookAtFrames(call.frames);
      report(`${name} (${call.frames.length} frames of ${call.presented} presented)`, figures);
      if (args.keep) saveRecording(args.keep, name, call, figures);
      sheet(name, call.frames, figures, join(out, `face-look-${face.slug}.png`));
      // The screenshot a second into the answer at 1366; then a call at 390 for its own.
      writeFileSync(join(out, `face-look-call-${face.slug}-1366.png`), call.screenshots[1] ?? call.screenshots[0]!);
      const phone = await lookAtCall(world, browser, face.palId, face.box, { label: `${face.slug}-390`, size: PHONE, screenshots: 2 });
      writeFileSync(join(out, `face-look-call-${face.slug}-390.png`), phone.screenshots[1] ?? phone.screenshots[0]!);
      console.log(
        `  written: ${out}/face-look-${face.slug}.png, face-look-call-${face.slug}-{1366,390}.png (${DESKTOP.width} and ${PHONE.width} px)`,
      );
    }
  } finally {
    await browser.close();
    await world.close();
  }
}
