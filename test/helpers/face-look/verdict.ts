// The face-look bars (issue 51, point 7) and the figures in words. Each bar's calibration: see THRESHOLDS.
import assert from 'node:assert/strict';
import { reportFigure, type Figure } from '../figures.js';
import type { LookFigures } from './analyse.js';

/**
 * The bars, each set between the figures FaceMesh reads from replies made on purpose from the shared portrait
 * (test/helpers/face-look/calibration.ts; `npx tsx scripts/face-look-calibrate.ts` prints them; the figures
 * quoted are those of its run on 2026-11-27, 14 frames a reply, the head moving ≤ 2° and 3 % with ±3 levels
 * of noise in every frame but rest).
 */
export const THRESHOLDS = {
  /** (a) the worst cell outside the mouth-and-jaw region and eyelids, in any frame (luma levels): good replies ≤ 10.1, rectangles pasted over the brows 95. */
  outsideMax: 20,
  /** (b) over the widest-open frames: the inside's luma spread (p90 − p10) at least this (good 194; a flat void 4, a black ellipse 11)… */
  insideSpread: 40,
  /** …the share of tooth-bright pixels in its upper part at least this (good 62 %; void and ellipse 0–2 %)… */
  toothShare: 0.1,
  /**
   * …and the flat dark void at most this share of it (made good 0 %; made void 75 %, ellipse 64 %). Set low:
   * today's hole reads 9–43 % from call to call, its photo's own teeth around it passing spread and teeth.
   */
  voidShare: 0.05,
  /**
   * …and the mouth (lips and opening) at least this share in a mouth's warm tones: lips, tongue, a lit throat
   * (measures.ts WARM). The clip face's dark hole under a thin tooth strip, its lips pale and no tongue seen,
   * passed the three above (spread 173–180, teeth 49–57 %, void 0 %) and reads 8–9 % here; the photo face's
   * widest mouth, which reads as a person's, 15 %. Made: see calibration.ts.
   */
  warmShare: 0.12,
  /**
   * …and the throat's hue (measures.ts throatHue, degrees) at least this: a warm red-dark, its blue under its
   * green. The clip and photo faces' throats, blue = green, read 0° and purple-brown behind the teeth; the made
   * good mouth's shadow (110, 45, 36) reads 6–7°, the made dark hole (64, 40, 42) −4°. A mouth with no dark
   * pixels inside has no hue and is not judged by it. Made: see calibration.ts.
   */
  throatHue: 4,
  /**
   * The widest openings must open at least this (face heights, as FaceMesh reads the lips' inner gap) for (b)
   * and (c) to be judged: FaceMesh reads a made opening of 11 % of the face as 2–6 % (least over a black
   * ellipse, which it takes for lips), a closed mouth within ±1 %.
   */
  opening: 0.012,
  /**
   * (c) the chin's drop against the lower lip's, both read from the pixels (chin-edge.ts): correlation at least
   * (made jaws 1.00; frozen chin 0.27, ellipse 0.70; a chin carried a third of the way 0.99: the slope fails
   * those two)… FaceMesh's chin point against its opening, reported beside: good 0.78–0.90, frozen chin 0.30–0.49.
   */
  chinCorrelation: 0.65,
  /**
   * …and at least this much chin drop per unit of the lower lip's (made jaws 0.97, a jaw carrying the chin a
   * third of the way 0.40, frozen chin 0.01, ellipse 0.31). FaceMesh's, beside: good 0.91–1.30, frozen 0.20–0.58,
   * the third 0.90.
   */
  chinSlope: 0.75,
  /** (d) blinks in the reply at least (two made)… */
  blinks: 2,
  /** …each closing the eyes' aspect to at most this share of the rest's (made blinks 42–49 %; open eyes 90–110 %). */
  blinkDepth: 0.65,
  /** (e) cosine similarity of the face-description embedding to rest, least over the frames (good 0.87–0.99, the portrait blurred to a 40 px face 0.89; two other people 0.34 and 0.39, Ada 0.28). */
  same: 0.7,
};

const f2 = (x: number) => x.toFixed(2),
  f1 = (x: number) => x.toFixed(1),
  pc = (x: number) => `${(x * 100).toFixed(0)} %`,
  pf = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The figures, one measure a line. */
export function describeLook(f: LookFigures): string[] {
  return [
    `(a) outside the mouth, jaw and eyelids: worst cell ${f1(f.outside.max)} levels (frame ${f.outside.worstIndex}), 99th pct ${f1(f.outside.p99)}, median ${f1(f.outside.median)} [bar ≤ ${THRESHOLDS.outsideMax}]`,
    `(b) inside the ${f.inside.frames} widest-open frames (opening ${f2(f.inside.opening)} face heights): luma spread ${f1(f.inside.spread)}, median ${f1(f.inside.median)}, teeth ${pc(f.inside.toothShare)} of its upper part, flat void ${pc(f.inside.voidShare)}; of the whole mouth warm tones ${pc(f.inside.warmShare ?? NaN)}, near-black ${pc(f.inside.blackShare ?? NaN)}; the throat's hue ${f1(f.inside.throatHue ?? NaN)}° [bars spread ≥ ${THRESHOLDS.insideSpread}, teeth ≥ ${pc(THRESHOLDS.toothShare)}, void ≤ ${pc(THRESHOLDS.voidShare)}, warm ≥ ${pc(THRESHOLDS.warmShare)}, throat ≥ ${THRESHOLDS.throatHue}°]`,
    `(c) chin against lower lip (pixels): correlation ${f2(f.chin.correlation)}, slope ${f2(f.chin.slope)}, 95th-pct drops chin ${pf(f.chin.travel)} and lower lip ${pf(f.chin.lipTravel)} of the face's height [bars r ≥ ${THRESHOLDS.chinCorrelation}, slope ≥ ${THRESHOLDS.chinSlope}]; FaceMesh's chin point against its opening (to ${pf(f.chin.openingRange)}): r ${f2(f.chin.faceMesh?.correlation ?? NaN)}, slope ${f2(f.chin.faceMesh?.slope ?? NaN)}, chin ${pf(f.chin.faceMesh?.travel ?? NaN)}`,
    `(d) blinks: ${f.blinks.count} (eye aspect at rest ${f2(f.blinks.restAspect)}, at each blink's deepest ${f.blinks.depths.map(pc).join(', ') || '–'} of it), (a) during them ${f1(f.blinks.outsideDuring)} [bars ≥ ${THRESHOLDS.blinks} blinks, each ≤ ${pc(THRESHOLDS.blinkDepth)}]`,
    `(e) same person: embedding similarity to rest least ${f2(f.same.min)} (frame ${f.same.worstIndex}) over ${f.same.frames ?? '?'} frames, 5th pct ${f2(f.same.p5)} [bar ≥ ${THRESHOLDS.same}]`,
    `${f.frames} frames, ${f.faceless} without a face found`,
  ];
}

/** Which measures hold (true), fail (false), or cannot be judged (null: the mouth never opened enough). */
export function judgeLook(f: LookFigures): Record<'outside' | 'inside' | 'chin' | 'blink' | 'same', boolean | null> {
  const T = THRESHOLDS;
  return {
    outside: f.outside.max <= T.outsideMax,
    inside:
      f.inside.opening >= T.opening
        ? f.inside.spread >= T.insideSpread &&
          f.inside.toothShare >= T.toothShare &&
          f.inside.voidShare <= T.voidShare &&
          f.inside.warmShare >= T.warmShare &&
          warmThroat(f)
        : null,
    chin: f.chin.openingRange >= T.opening ? f.chin.correlation >= T.chinCorrelation && f.chin.slope >= T.chinSlope : null,
    blink: f.blinks.count >= T.blinks && f.blinks.depths.every((d) => d <= T.blinkDepth) && f.blinks.outsideDuring <= T.outsideMax,
    same: f.same.min >= T.same,
  };
}

/** Whether the throat reads warm (or shows no dark pixels to read: no hue). */
function warmThroat(f: LookFigures): boolean {
  const hue = f.inside.throatHue ?? NaN;
  return Number.isNaN(hue) || hue >= THRESHOLDS.throatHue;
}

/** Asserts every measure (the mouth must open enough to be judged). */
export function assertLook(name: string, f: LookFigures): void {
  const verdict = judgeLook(f);
  const failed = Object.entries(verdict)
    .filter(([, ok]) => ok !== true)
    .map(([k, ok]) => `${k}${ok === null ? ' (the mouth never opened enough to judge)' : ''}`);
  assert.deepEqual(failed, [], `${name}: fails ${failed.join(', ')}:\n${describeLook(f).join('\n')}`);
}

/** A figure with its bar: met when `value` is within `limit` (and the measure could be judged); `scale` for display only. */
function barred(better: 'lower' | 'higher', name: string, value: number, limit: number, unit: string, scale = 1, judged = true): Figure {
  const within = better === 'lower' ? value <= limit : value >= limit;
  return { name, value: value * scale, unit, better, bar: `${better === 'lower' ? '≤' : '≥'} ${limit * scale}`, met: judged && within };
}

/** The row's figures to the real-time results (`npm run report` compares them with the run before), each with its bar. */
export function reportLook(row: string, f: LookFigures): void {
  const T = THRESHOLDS;
  const judged = { inside: f.inside.opening >= T.opening, chin: f.chin.openingRange >= T.opening };
  const figures: Figure[] = [
    barred('lower', '(a) worst cell outside mouth, jaw, lids', f.outside.max, T.outsideMax, 'levels'),
    barred('higher', '(b) inside spread', f.inside.spread, T.insideSpread, 'levels', 1, judged.inside),
    barred('higher', '(b) teeth in the inside', f.inside.toothShare, T.toothShare, '%', 100, judged.inside),
    barred('lower', '(b) flat void in the inside', f.inside.voidShare, T.voidShare, '%', 100, judged.inside),
    barred('higher', '(b) warm tones in the mouth', f.inside.warmShare, T.warmShare, '%', 100, judged.inside),
    { name: '(b) near-black in the mouth', value: f.inside.blackShare * 100, unit: '%' },
    barred(
      'higher',
      "(b) the throat's hue",
      f.inside.throatHue ?? NaN,
      T.throatHue,
      '°',
      1,
      judged.inside && !Number.isNaN(f.inside.throatHue ?? NaN),
    ),
    barred('higher', '(b)(c) widest opening', f.chin.openingRange, T.opening, '% face', 100),
    barred('higher', '(c) chin r with lower lip', f.chin.correlation, T.chinCorrelation, '', 1, judged.chin),
    barred('higher', '(c) chin slope on lower lip', f.chin.slope, T.chinSlope, '', 1, judged.chin),
    { name: "(c) FaceMesh's chin r with opening", value: f.chin.faceMesh.correlation, unit: '' },
    { name: "(c) FaceMesh's chin slope on opening", value: f.chin.faceMesh.slope, unit: '' },
    barred('higher', '(d) blinks', f.blinks.count, T.blinks, ''),
    barred('lower', '(d) shallowest blink', Math.max(0, ...f.blinks.depths), T.blinkDepth, '% of rest', 100),
    barred('lower', '(d) (a) during blinks', f.blinks.outsideDuring, T.outsideMax, 'levels'),
    barred('higher', '(e) least similarity to rest', f.same.min, T.same, ''),
    { name: 'frames looked at', value: f.frames, unit: '' },
  ];
  for (const figure of figures) reportFigure({ ...figure, name: `${row}: ${figure.name}` });
}
