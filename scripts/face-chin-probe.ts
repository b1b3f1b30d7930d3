// `npx tsx scripts/face-chin-probe.ts photo|clip [--train]`: the face-look chin measure (c) without a call. Trains
// a face from the shared portrait (or the 12 s pan-and-zoom clip the face-look rows use; kept in
// /tmp/chin-off/<face>, --train to redo), draws mouth shapes at rising weights with the shared 2D painter
// (face-drawing/mesh-paint.ts), crops each frame to 224 px with the face framed as the call's <video> shows it
// (forehead to chin about 95 px; SCALE=<crop side in face heights> to change), and prints for each the rig's own
// geometry (lip opening and chin drop, face heights) beside what FaceMesh reads (the instrument's see.ts and
// analyse.ts, rest = the first frame). VIS=A,O: the shapes; SAVE=1 keeps the frames at weights 0, 0.6, 1.
import { writeFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { paintMeshFrame } from '../src/face-drawing/mesh-paint.js';
import { channelsOf, meshFrame, noChannels } from '../src/face-drawing/mesh.js';
import { see } from '../test/helpers/face-look/see.js';
import { probeRig } from './probe-rig.js';
import { analyseLook, type LookedFrame } from '../test/helpers/face-look/analyse.js';
import type { Viseme } from '../src/protocol/visemes.js';

const which = process.argv[2] === 'clip' ? 'clip' : 'photo';
const dir = `/tmp/chin-off/${which}`;
const { rig, idle: idleBuf, mouths: mouthsBuf } = await probeRig(which, dir);
const [idle, inside] = [await loadImage(idleBuf), await loadImage(mouthsBuf)];
const visemes = (process.env.VIS ?? 'A,O,E,I,L').split(',') as Viseme[];
const steps = [0, 0.2, 0.4, 0.6, 0.8, 1];
const frameIdx = Number(process.env.FRAME ?? 0);
const shots: Array<{ v: string; w: number; geo: { open: number; chin: number } }> = [];
const looked: LookedFrame[] = [];
/** Landmark i of a frame's points (x: k 0, y: k 1). */
const at = (p: ArrayLike<number>, i: number, k: 0 | 1): number => p[2 * i + k]!;
const dist = (p: ArrayLike<number>, i: number, j: number): number => Math.hypot(at(p, i, 0) - at(p, j, 0), at(p, i, 1) - at(p, j, 1));
const f0 = rig.mesh!.frames[frameIdx]!;
const faceH = dist(f0, 152, 10);
// As the call frames it: the face (forehead to chin) about 95 px of the 224 px crop (SCALE overrides).
const side = Math.min(rig.width, rig.height, faceH * Number(process.env.SCALE ?? 224 / 95));
const cx = (at(f0, 10, 0) + at(f0, 152, 0)) / 2,
  cy = (at(f0, 10, 1) + at(f0, 152, 1)) / 2 + 0.05 * faceH;
const sx = Math.max(0, Math.min(rig.width - side, cx - side / 2)),
  sy = Math.max(0, Math.min(rig.height - side, cy - side / 2));
const out = createCanvas(224, 224);
const octx = out.getContext('2d');
for (const v of visemes)
  for (const w of steps) {
    if (w === 0 && v !== visemes[0]) continue;
    const ch = w
      ? channelsOf(
          new Map([
            [v, w],
            ['rest', 1 - w],
          ] as Array<[Viseme, number]>),
        )
      : noChannels();
    const canvas = createCanvas(rig.width, rig.height);
    const ctx = canvas.getContext('2d');
    paintMeshFrame(ctx, rig, idle, inside, frameIdx, ch);
    const mf = meshFrame(rig, frameIdx, ch);
    const t = mf.target;
    const gOpen = dist(t, 14, 13) - dist(f0, 14, 13);
    const gChin = at(t, 152, 1) - at(f0, 152, 1);
    const h = faceH;
    shots.push({ v, w, geo: { open: gOpen / h, chin: gChin / h } });
    octx.drawImage(canvas, sx, sy, side, side, 0, 0, 224, 224);
    if (process.env.SAVE && (w === 1 || w === 0.6 || w === 0))
      writeFileSync(`${dir}/${process.env.TAG ?? ''}${v}-${w}.png`, out.toBuffer('image/png'));
    const data = octx.getImageData(0, 0, 224, 224).data;
    const rgb = new Uint8Array(224 * 224 * 3);
    for (let i = 0; i < 224 * 224; i++) {
      rgb[3 * i] = data[4 * i]!;
      rgb[3 * i + 1] = data[4 * i + 1]!;
      rgb[3 * i + 2] = data[4 * i + 2]!;
    }
    const image = { width: 224, height: 224, rgb };
    const sight = await see(image);
    looked.push({ at: looked.length * 40, silent: w === 0, image, mesh: sight.mesh, embedding: sight.embedding });
  }
const fig = analyseLook(looked, 0);
console.log(`${which} rig ${rig.width}x${rig.height}, frame ${frameIdx}, face ${faceH.toFixed(0)} px, crop ${side.toFixed(0)}`);
fig.readings.forEach((r, i) => {
  const g = shots[i]!;
  console.log(
    `${g.v} ${g.w.toFixed(1)}  geometry open ${(g.geo.open * 100).toFixed(2)}% chin ${(g.geo.chin * 100).toFixed(2)}%  | FaceMesh open ${(r.opening * 100).toFixed(2)}% chin ${(r.chin * 100).toFixed(2)}%`,
  );
});
console.log('FaceMesh (c):', JSON.stringify(fig.chin), '(b):', JSON.stringify(fig.inside));
const go = shots.map((s) => s.geo.open),
  gc = shots.map((s) => s.geo.chin);
console.log('geometry slope', gc.reduce((a, c, i) => a + c * go[i]!, 0) / go.reduce((a, o) => a + o * o, 0));
