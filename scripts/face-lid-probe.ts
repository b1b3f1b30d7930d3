// `npx tsx scripts/face-lid-probe.ts photo|clip [--train]`: the face-look (a) at a blink without a call. Trains a
// face from the shared portrait (or the 12 s pan-and-zoom clip the face-look rows use; kept in /tmp/lid-probe/<face>,
// --train to redo), draws idle frames FRAMES (default 0,8,16,24,32,40) with both lids at closures 0.3–1 by the
// shared 2D painter (face-drawing/mesh-paint.ts), crops each to 224 px framed as the call's <video> shows the face,
// and prints (a)'s worst cell (and where, in crop pixels) and the eye aspect against the same frame open, as the
// instrument reads them (see.ts, measures.ts). SAVE=1 keeps the crops. Issue 51: the clip face's (a) at a
// closing lid's outer corner.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { paintMeshFrame } from '../src/face-drawing/mesh-paint.js';
import { noChannels } from '../src/face-drawing/mesh.js';
import { see } from '../test/helpers/face-look/see.js';
import { probeRig } from './probe-rig.js';
import { outsideChange, prepareRest, type Rest } from '../test/helpers/face-look/measures.js';
import { eyeAspect } from '../test/helpers/face-look/regions.js';
import { writePng } from '../test/helpers/face-look/files.js';

const which = process.argv[2] === 'photo' ? 'photo' : 'clip';
const dir = `/tmp/lid-probe/${which}`;
const { rig, idle: idleBuf, mouths: mouthsBuf } = await probeRig(which, dir);
const [idle, inside] = [await loadImage(idleBuf), await loadImage(mouthsBuf)];
const frames = rig.mesh!.frames;
const chosen = (process.env.FRAMES ?? '0,8,16,24,32,40').split(',').map((f) => Number(f) % frames.length);
const crop = createCanvas(224, 224);
const cropCtx = crop.getContext('2d');
let worst = 0;
for (const frame of chosen) {
  // Framed as the call frames the face: forehead to chin about 95 px of the 224 px crop.
  const p = frames[frame]!;
  const at = (i: number, k: 0 | 1) => p[2 * i + k]!;
  const faceHeight = Math.hypot(at(152, 0) - at(10, 0), at(152, 1) - at(10, 1));
  const side = Math.min(rig.width, rig.height, (faceHeight * 224) / 95);
  const [cx, cy] = [(at(10, 0) + at(152, 0)) / 2, (at(10, 1) + at(152, 1)) / 2 + 0.05 * faceHeight];
  const sx = Math.max(0, Math.min(rig.width - side, cx - side / 2)),
    sy = Math.max(0, Math.min(rig.height - side, cy - side / 2));
  let rest: Rest | null = null;
  const line: string[] = [];
  for (const closure of [0, 0.3, 0.6, 0.8, 1]) {
    const channels = { ...noChannels(), blinkL: closure, blinkR: closure };
    const canvas = createCanvas(rig.width, rig.height);
    paintMeshFrame(canvas.getContext('2d'), rig, idle, inside, frame, channels);
    cropCtx.drawImage(canvas, sx, sy, side, side, 0, 0, 224, 224);
    const rgba = cropCtx.getImageData(0, 0, 224, 224).data;
    const rgb = new Uint8Array(224 * 224 * 3);
    for (let i = 0; i < 224 * 224; i++) for (let c = 0; c < 3; c++) rgb[3 * i + c] = rgba[4 * i + c]!;
    const image = { width: 224, height: 224, rgb };
    if (process.env.SAVE) writePng(`${dir}/frame${frame}-closure${closure}.png`, image);
    const mesh = (await see(image, { embedding: false })).mesh;
    if (!mesh) {
      line.push(`${closure}: no face`);
      continue;
    }
    if (!rest) {
      rest = prepareRest({ image, mesh });
      continue;
    }
    const change = outsideChange(rest, { image, mesh });
    worst = Math.max(worst, change.worst);
    const eye = eyeAspect(mesh) / eyeAspect(rest.seen.mesh);
    line.push(
      `${closure}: (a) ${change.worst.toFixed(1)} at ${change.at.map((v) => v.toFixed(0)).join(',')}, eye ${(100 * eye).toFixed(0)} %`,
    );
  }
  console.log(`frame ${frame}: ${line.join(' | ')}`);
}
console.log(`${which}: worst (a) at a blink ${worst.toFixed(1)} [bar ≤ 20]`);
