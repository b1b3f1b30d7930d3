// Which face-look rows the real-time tier runs by default (issue 51, point 7). A quiet row runs by default
// when its engine lists its face here; every other row (the loaded ones, and the quiet ones not listed) runs
// when PALKIT_FACE_LOOK=1. Turn a row on here, and only here, once it passes run after run.
import type { Engine } from '../visitor.js';

export type LookFace = 'photo face' | 'clip face';
export const LOOK_FACES: LookFace[] = ['photo face', 'clip face'];

/**
 * The quiet rows on by default. Off: the clip face, which passes in every engine but adds about a minute to the
 * tier; PALKIT_FACE_LOOK=1 runs it with the loaded rows.
 */
export const ON_BY_DEFAULT: Record<Engine, LookFace[]> = {
  chromium: ['photo face'],
  firefox: ['photo face'],
  webkit: ['photo face'],
};

/** Why a row does not run, or false when it does. */
export function rowSkipped(engine: Engine, face: LookFace, loaded: boolean, env = process.env): string | false {
  if (env.PALKIT_FACE_LOOK) return false;
  if (loaded) return 'the loaded face-look rows run when PALKIT_FACE_LOOK=1';
  if (!ON_BY_DEFAULT[engine].includes(face))
    return `not on by default yet (ON_BY_DEFAULT in test/helpers/face-look/rows.ts); PALKIT_FACE_LOOK=1 runs it`;
  return false;
}
