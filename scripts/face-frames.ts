// `npx tsx scripts/face-frames.ts <photo or clip> <out dir> [--clip]`: trains a face from a file as the
// service does (landmarks, then the rig), writes the rig (rig.json, idle.jpg, mouths.webp) and PNG frames of
// it drawn by the shared 2D painter (face-drawing/mesh-paint.ts, as the generated videos and the browser's
// canvas 2D draw it): at rest, each mouth shape, mid-blink and closed, and the head's motion, plus a contact
// sheet of them (sheet.png). With no file: the shared portrait. Look at them before committing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { locateFfmpeg } from '../src/server/platform/media/ffmpeg.js';
import { analyseFace, makeRig } from '../src/server/resources/faces/rig/train.js';
import { paintMeshFrame } from '../src/face-drawing/mesh-paint.js';
import { channelsOf, livingHead, noChannels, type Channels } from '../src/face-drawing/mesh.js';
import type { Viseme } from '../src/protocol/visemes.js';

const input = process.argv[2] ?? '../shared/fixtures/portrait-collins.jpg';
const out = process.argv[3] ?? '/tmp/face-frames';
const still = !process.argv.includes('--clip') && !/\.(mp4|webm|mov)$/i.test(input);
mkdirSync(out, { recursive: true });
const ffmpeg = locateFfmpeg(undefined);
if ('missing' in ffmpeg) throw new Error(ffmpeg.missing);
const started = performance.now();
const analysis = await analyseFace(ffmpeg.path, input, { still });
const files = await makeRig(ffmpeg.path, input, analysis);
console.log(
  `trained in ${((performance.now() - started) / 1000).toFixed(1)} s; rig ${((files.idle.length + files.mouths.length + JSON.stringify(files.rig).length) / 1e6).toFixed(2)} MB, ${files.rig.idle.count} idle frames, ${files.rig.mesh!.triangles.length / 3} triangles`,
);
writeFileSync(join(out, 'rig.json'), JSON.stringify(files.rig));
writeFileSync(join(out, 'idle.jpg'), files.idle);
writeFileSync(join(out, 'mouths.webp'), files.mouths);

const { rig } = files;
const [idle, inside] = [await loadImage(Buffer.from(files.idle)), await loadImage(Buffer.from(files.mouths))];
const shots: Array<[string, Channels, number]> = [
  ['rest', noChannels(), 0],
  ...(['A', 'E', 'I', 'O', 'U', 'M', 'F', 'L', 'S'] as Viseme[]).map((v): [string, Channels, number] => [
    v,
    channelsOf(new Map([[v, 1]])),
    0,
  ]),
  [
    'half-A',
    channelsOf(
      new Map([
        ['A', 0.5],
        ['rest', 0.5],
      ]),
    ),
    0,
  ],
  ['mid-blink', { ...noChannels(), blinkL: 0.5, blinkR: 0.5 }, 0],
  ['blink', { ...noChannels(), blinkL: 1, blinkR: 1 }, 0],
  ['head-1', noChannels(), 1800],
  ['head-2', channelsOf(new Map([['A', 1]])), 4100],
];
const sheet = createCanvas(rig.width * 4, rig.height * Math.ceil(shots.length / 4));
const sctx = sheet.getContext('2d');
shots.forEach(([name, channels, ms], n) => {
  const canvas = createCanvas(rig.width, rig.height);
  const ctx = canvas.getContext('2d');
  const head = ms && rig.mesh!.motion === 'generated' ? livingHead(ms, channels.jaw, rig.width) : undefined;
  paintMeshFrame(ctx, rig, idle, inside, 0, channels, head);
  writeFileSync(join(out, `${name}.png`), canvas.toBuffer('image/png'));
  sctx.drawImage(canvas, (n % 4) * rig.width, Math.floor(n / 4) * rig.height);
  sctx.fillStyle = '#fff';
  sctx.font = '20px sans-serif';
  sctx.fillText(name, (n % 4) * rig.width + 8, Math.floor(n / 4) * rig.height + 24);
});
writeFileSync(join(out, 'sheet.png'), sheet.toBuffer('image/png'));
console.log(`frames in ${out}`);
