// A looked-at call kept on disk: <name>.json (each frame's time, silence, landmarks' readings, the figures) and
// <name>.rgb (the frames' pixels one after another), for contact sheets and for analysing again.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LookFigures } from './analyse.js';
import type { CapturedFrame, LookedCall } from './call.js';

export const recordingName = (name: string): string => name.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '');

export function saveRecording(folder: string, name: string, call: LookedCall, figures: LookFigures): void {
  mkdirSync(folder, { recursive: true });
  const base = join(folder, recordingName(name));
  const { width, height } = call.frames[0]!.image;
  writeFileSync(
    `${base}.json`,
    JSON.stringify({
      name,
      width,
      height,
      crop: call.crop,
      video: call.video,
      frames: call.frames.map(({ at, silent }) => ({ at, silent })),
      figures: { ...figures, readings: figures.readings },
    }),
  );
  const rgb = Buffer.alloc(call.frames.length * width * height * 3);
  call.frames.forEach((f, i) => rgb.set(f.image.rgb, i * width * height * 3));
  writeFileSync(`${base}.rgb`, rgb);
}

export function loadRecording(base: string): { name: string; frames: CapturedFrame[]; figures: LookFigures } {
  const meta = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as {
    name: string;
    width: number;
    height: number;
    frames: Array<{ at: number; silent: boolean }>;
    figures: LookFigures;
  };
  const rgb = readFileSync(`${base}.rgb`),
    size = meta.width * meta.height * 3;
  return {
    name: meta.name,
    figures: meta.figures,
    frames: meta.frames.map((f, i) => ({
      ...f,
      image: { width: meta.width, height: meta.height, rgb: new Uint8Array(rgb.subarray(i * size, (i + 1) * size)) },
    })),
  };
}
