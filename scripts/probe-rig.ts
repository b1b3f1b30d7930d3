// The rig the offline face probes draw (scripts/face-chin-probe.ts, face-lid-probe.ts): trained from the shared
// portrait, or from the 12 s pan-and-zoom clip the face-look rows use, and kept in `dir` so a probe run again
// draws at once (`--train` on the command line trains afresh).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { locateFfmpeg } from '../src/server/platform/media/ffmpeg.js';
import { analyseFace, makeRig } from '../src/server/resources/faces/rig/train.js';
import { PORTRAIT, portraitClip } from '../test/helpers/face-clips.js';
import type { FaceRig } from '../src/protocol/faces/rig.js';

export interface ProbeRig {
  rig: FaceRig;
  idle: Buffer;
  mouths: Buffer;
}

export async function probeRig(which: 'photo' | 'clip', dir: string): Promise<ProbeRig> {
  if (existsSync(`${dir}/rig.json`) && !process.argv.includes('--train')) {
    return {
      rig: JSON.parse(readFileSync(`${dir}/rig.json`, 'utf8')) as FaceRig,
      idle: readFileSync(`${dir}/idle.jpg`),
      mouths: readFileSync(`${dir}/mouths.webp`),
    };
  }
  const ffmpeg = locateFfmpeg(undefined);
  if ('missing' in ffmpeg) throw new Error(ffmpeg.missing);
  mkdirSync(dir, { recursive: true });
  let input = PORTRAIT;
  if (which === 'clip') {
    input = `${dir}/clip.mp4`;
    writeFileSync(input, portraitClip(12));
  }
  const files = await makeRig(ffmpeg.path, input, await analyseFace(ffmpeg.path, input, { still: which !== 'clip' }));
  const made: ProbeRig = { rig: files.rig, idle: Buffer.from(files.idle), mouths: Buffer.from(files.mouths) };
  writeFileSync(`${dir}/rig.json`, JSON.stringify(made.rig));
  writeFileSync(`${dir}/idle.jpg`, made.idle);
  writeFileSync(`${dir}/mouths.webp`, made.mouths);
  return made;
}
