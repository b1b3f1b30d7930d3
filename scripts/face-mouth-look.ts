// `npx tsx scripts/face-mouth-look.ts rig <rig folder> <out.png>` or `… row <recording> <out.png> [n]`: the open
// mouth up close (issue 51). `rig`: a trained rig's resting frame (rig.json and idle.jpg, as scripts/face-frames.ts
// or face-chin-probe.ts keep them) around the mouth at 6×, its lip landmarks on it (upper inner green, lower
// inner red, outer blue) and the opening's outline the inside is drawn in (yellow); prints the inner lips'
// pairs where the upper lies below the lower (a fold). `row`: a kept face-look recording (<folder>/<name>, no
// extension; PALKIT_FACE_LOOK_RECORDINGS) — its rest frame and its n (default 4) widest-open frames around the
// mouth at 8×, with the lips FaceMesh reads on them (inner green, outer blue).
import { readFileSync, writeFileSync } from 'node:fs';
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { loadRecording } from '../test/helpers/face-look/recording.js';
import { see } from '../test/helpers/face-look/see.js';
import { INNER_LIPS } from '../test/helpers/face-look/regions.js';

const UPPER_INNER = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308];
const LOWER_INNER = [95, 88, 178, 87, 14, 317, 402, 318, 324];
const OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];

const [mode, from, out, count] = process.argv.slice(2);
if (!from || !out || (mode !== 'rig' && mode !== 'row')) throw new Error('usage: face-mouth-look.ts rig|row <from> <out.png> [n]');

type Pt = [number, number];
/** A box round the lips (outer edge), grown by the mouth's width each side and half of it above and below. */
function boxOf(outer: Pt[]): { x: number; y: number; w: number; h: number } {
  const xs = outer.map((p) => p[0]),
    ys = outer.map((p) => p[1]);
  const width = Math.max(...xs) - Math.min(...xs);
  const x = Math.floor(Math.min(...xs) - 0.5 * width),
    y = Math.floor(Math.min(...ys) - 0.5 * width);
  return { x, y, w: Math.ceil(2 * width), h: Math.ceil(Math.max(...ys) - y + 0.6 * width) };
}

function dots(
  ctx: SKRSContext2D,
  at: (i: number) => Pt,
  box: { x: number; y: number },
  scale: number,
  ox: number,
  sets: Array<[number[], string]>,
) {
  for (const [indices, colour] of sets) {
    ctx.fillStyle = colour;
    for (const i of indices) {
      const [x, y] = at(i);
      ctx.fillRect(ox + (x - box.x) * scale - 2, (y - box.y) * scale - 2, 5, 5);
    }
  }
}

if (mode === 'rig') {
  const rig = JSON.parse(readFileSync(`${from}/rig.json`, 'utf8')) as { mesh: { frames: number[][]; hole: number[] } };
  const idle = await loadImage(readFileSync(`${from}/idle.jpg`));
  const p = rig.mesh.frames[0]!;
  const at = (i: number): Pt => [p[2 * i]!, p[2 * i + 1]!];
  const box = boxOf(OUTER.map(at));
  const scale = 6;
  const canvas = createCanvas(box.w * scale, box.h * scale),
    ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(idle, box.x, box.y, box.w, box.h, 0, 0, box.w * scale, box.h * scale);
  ctx.strokeStyle = '#ff0';
  ctx.beginPath();
  rig.mesh.hole.forEach((i, k) => {
    const [x, y] = at(i);
    if (k) ctx.lineTo((x - box.x) * scale, (y - box.y) * scale);
    else ctx.moveTo((x - box.x) * scale, (y - box.y) * scale);
  });
  ctx.closePath();
  ctx.stroke();
  dots(ctx, at, box, scale, 0, [
    [OUTER, '#08f'],
    [UPPER_INNER, '#0f0'],
    [LOWER_INNER, '#f00'],
  ]);
  writeFileSync(out, canvas.toBuffer('image/png'));
  // The mouth's axis from corner to corner (61 → 291): "below" is along its normal.
  const [l, r] = [at(61), at(291)];
  const len = Math.hypot(r[0] - l[0], r[1] - l[1]);
  const down = (q: Pt) => (-(r[1] - l[1]) * (q[0] - l[0]) + (r[0] - l[0]) * (q[1] - l[1])) / len;
  LOWER_INNER.forEach((low, k) => {
    const up = UPPER_INNER[k + 1]!;
    const gap = down(at(low)) - down(at(up));
    if (gap < 0) console.log(`fold: upper inner ${up} lies ${(-gap).toFixed(1)} px below lower inner ${low}`);
  });
  for (const [inner, outer] of [
    [78, 61],
    [308, 291],
  ] as const)
    console.log(
      `corner ${inner} (inner) at ${at(inner).map((v) => v.toFixed(1))}, ${outer} (outer) at ${at(outer).map((v) => v.toFixed(1))}`,
    );
} else {
  const recording = loadRecording(from);
  const widest = [...recording.figures.readings].sort((a, b) => b.opening - a.opening).slice(0, Number(count ?? 4));
  const frames = [recording.figures.restIndex, ...widest.map((w) => w.index)];
  const sights: Array<Awaited<ReturnType<typeof see>>['mesh']> = [];
  for (const i of frames) sights.push((await see(recording.frames[i]!.image, { embedding: false })).mesh);
  const restMesh = sights[0];
  if (!restMesh) throw new Error('no face in the rest frame');
  const box = boxOf(OUTER.map((i) => restMesh[i]!));
  const scale = 8;
  const canvas = createCanvas(box.w * scale * frames.length, box.h * scale),
    ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  frames.forEach((index, t) => {
    const { width, height, rgb } = recording.frames[index]!.image;
    const tile = createCanvas(width, height);
    const data = tile.getContext('2d').createImageData(width, height);
    for (let i = 0; i < width * height; i++) data.data.set([rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!, 255], 4 * i);
    tile.getContext('2d').putImageData(data, 0, 0);
    ctx.drawImage(tile, box.x, box.y, box.w, box.h, t * box.w * scale, 0, box.w * scale, box.h * scale);
    const mesh = sights[t];
    if (mesh)
      dots(ctx, (i) => mesh[i]!, box, scale, t * box.w * scale, [
        [OUTER, '#08f'],
        [INNER_LIPS, '#0f0'],
      ]);
    const reading = recording.figures.readings.find((r) => r.index === index);
    console.log(`tile ${t}: frame ${index}, opening ${((reading?.opening ?? 0) * 100).toFixed(1)} % of the face`);
  });
  writeFileSync(out, canvas.toBuffer('image/png'));
}
