// `npx tsx scripts/face-look-calibrate.ts [portrait] [out-folder]`: the face-look instrument's calibration
// (issue 51, point 7): replies made on purpose from the portrait, good and bad, their figures and the bars'
// verdicts printed, each reply's frames written side by side as a PNG in the folder (default
// /tmp/face-look-calibration), and the embedding's similarity of other faces to the portrait.
import { mkdirSync } from 'node:fs';
import { madeReplies, lookAtMade, OTHER_FACES } from '../test/helpers/face-look/calibration.js';
import { readImage, writePng } from '../test/helpers/face-look/files.js';
import { cosine, type Rgb } from '../test/helpers/face-look/image.js';
import { see } from '../test/helpers/face-look/see.js';
import { describeLook, judgeLook } from '../test/helpers/face-look/verdict.js';

const portrait = process.argv[2] ?? 'test/fixtures/portrait-collins.jpg';
const out = process.argv[3] ?? '/tmp/face-look-calibration';
const only = process.env.FACE_LOOK_ONLY?.split(',').map(Number);
mkdirSync(out, { recursive: true });
const rest = readImage(portrait);
const sight = await see(rest);
if (!sight.mesh || !sight.embedding) throw new Error(`no face in ${portrait}`);
for (const other of OTHER_FACES) {
  const seen = await see(readImage(other.file, other.filter));
  console.log(
    `(e) ${other.name}: ${seen.embedding ? `similarity ${cosine(seen.embedding, sight.embedding).toFixed(3)}` : 'no face found'}`,
  );
}
for (const [k, reply] of madeReplies(rest, sight.mesh).entries()) {
  if (only && !only.includes(k)) continue;
  const started = performance.now();
  const figures = await lookAtMade(reply, see);
  console.log(
    `${k}. ${reply.name} (${((performance.now() - started) / reply.frames.length).toFixed(0)} ms a frame)\n  made to be ${JSON.stringify(reply.good)}; judged ${JSON.stringify(judgeLook(figures))}\n  ${describeLook(figures).join('\n  ')}`,
  );
  if (process.env.FACE_LOOK_FRAMES)
    console.log(
      `  per frame: ${figures.readings.map((r) => `[${r.index}] out ${r.outside.toFixed(1)} open ${r.opening.toFixed(3)} chin ${r.chin.toFixed(3)} eye ${r.eye.toFixed(3)} same ${r.same.toFixed(3)}`).join('; ')}`,
    );
  writePng(`${out}/${k}.png`, strip(reply.frames));
}

/** The frames side by side. */
function strip(frames: Rgb[]): Rgb {
  const w = frames[0]!.width,
    h = frames[0]!.height,
    rgb = new Uint8Array(w * frames.length * h * 3);
  frames.forEach((f, i) => {
    for (let y = 0; y < h; y++) rgb.set(f.rgb.subarray(y * w * 3, (y + 1) * w * 3), (y * w * frames.length + i * w) * 3);
  });
  return { width: w * frames.length, height: h, rgb };
}
