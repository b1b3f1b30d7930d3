// Mouth shapes for a provider's voice, fitted to its audio. A provider (openai-speech.ts) sends samples
// without timing; the local voice says the same text and reports its phonemes with eSpeak's durations
// (phoneme-timing.ts). Both speak the same phonemes in the same order, only at their own pace and with
// their own pauses, so the sequence is fitted onto the provider's audio by the audio itself: 10 ms
// frames are voiced or silent by their energy, silence is `rest`, eSpeak's voiced time is stretched over
// the provider's voiced stretches (phrase by phrase where both paused as often, over all of it otherwise),
// and each lips-closed shape moves to the energy dip of its closure nearby. One pass over the samples and
// one over the phonemes: cheap enough for every sentence.
import type { Viseme } from '../../../protocol/visemes.js';

export interface VisemeMark {
  atMs: number;
  viseme: Viseme;
}
export interface WordMark {
  atMs: number;
  text: string;
}

/** How the local voice says a text: its phonemes' shapes and its words, in its own time. */
export interface PhonemeTiming {
  durationMs: number;
  visemes: VisemeMark[];
  words: WordMark[];
}

const FRAME_MS = 10;
/** Quieter gaps shorter than this are a stop's closure or a weak sound inside speech, not a pause. */
const BRIDGE_MS = 120;
/** Voiced stretches shorter than this are clicks or breaths, not speech. */
const MIN_RUN_MS = 30;
/** How far a lips-closed shape may move to reach the dip of its closure. */
const CLOSURE_SEARCH_MS = 60;
/** A dip counts as a closure when it is this much quieter than the loudest frame around it. */
const CLOSURE_DEPTH_DB = 6;

interface Run {
  start: number;
  end: number;
}

/** The provider's audio as shapes and word times, following the local voice's phonemes of the same text. */
export function alignVisemes(samples: Int16Array, sampleRate: number, timing: PhonemeTiming): { visemes: VisemeMark[]; words: WordMark[] } {
  const db = frameLevels(samples, sampleRate);
  const runs = voicedRuns(db);
  const segments = spoken(timing);
  if (!runs.length || !segments.length)
    return { visemes: [{ atMs: 0, viseme: 'rest' }], words: timing.words.map((w) => ({ atMs: 0, text: w.text })) };
  const warp = new Warp(segments, runs);
  const visemes: VisemeMark[] = [];
  if (runs[0]!.start > 0) visemes.push({ atMs: 0, viseme: 'rest' });
  for (const [k, run] of runs.entries()) {
    // The shape being said where this stretch begins, then every phoneme that starts inside it.
    visemes.push({ atMs: run.start, viseme: warp.shapeAt(warp.providerStart[k]!) });
    for (const segment of segments) {
      const at = warp.toAudio(warp.toProviderVoiced(segment.voicedStart));
      if (at > run.start && at < run.end) visemes.push({ atMs: at, viseme: segment.viseme });
    }
    visemes.push({ atMs: run.end, viseme: 'rest' });
  }
  moveClosuresToDips(visemes, db);
  const words = timing.words.map((w) => ({
    atMs: Math.round(warp.toAudio(warp.toProviderVoiced(warp.espeakVoicedAt(w.atMs)))),
    text: w.text,
  }));
  return { visemes: dedupe(visemes), words };
}

/** Each 10 ms frame's level in dB below full scale. */
export function frameLevels(samples: Int16Array, sampleRate: number): Float64Array {
  const size = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const db = new Float64Array(Math.ceil(samples.length / size));
  for (let f = 0; f < db.length; f++) {
    let sum = 0;
    const end = Math.min(samples.length, (f + 1) * size);
    for (let i = f * size; i < end; i++) sum += samples[i]! * samples[i]!;
    db[f] = Math.max(-100, 10 * Math.log10(sum / (end - f * size) / (32768 * 32768) || 1e-10));
  }
  return db;
}

/**
 * Voiced stretches in ms: frames well above the noise floor (or 20 dB under the loudest) and within 40 dB of it, short gaps
 * bridged, short blips dropped.
 */
function voicedRuns(db: Float64Array): Run[] {
  const sorted = [...db].sort((a, b) => a - b);
  const floor = sorted[Math.floor(sorted.length * 0.1)] ?? -100;
  const peak = sorted[sorted.length - 1] ?? -100;
  // Audio without pauses has its floor near its peak: then all of it that is not far below the peak is voiced.
  const threshold = Math.min(peak - 20, Math.max(peak - 40, floor + 10));
  const runs: Run[] = [];
  for (let f = 0; f < db.length; f++) {
    if (db[f]! <= threshold) continue;
    const last = runs[runs.length - 1];
    if (last && f * FRAME_MS - last.end < BRIDGE_MS) last.end = (f + 1) * FRAME_MS;
    else runs.push({ start: f * FRAME_MS, end: (f + 1) * FRAME_MS });
  }
  return runs.filter((r) => r.end - r.start >= MIN_RUN_MS);
}

interface Segment {
  viseme: Viseme;
  start: number;
  end: number;
  voicedStart: number;
  voicedEnd: number;
  phrase: number;
}

/** The local voice's sounding phonemes, each with its place on eSpeak's voiced time (pauses left out) and its phrase. */
function spoken(timing: PhonemeTiming): Segment[] {
  const segments: Segment[] = [];
  let voiced = 0;
  let phrase = 0;
  let paused = false;
  timing.visemes.forEach((mark, i) => {
    const end = Math.min(timing.durationMs, timing.visemes[i + 1]?.atMs ?? timing.durationMs);
    if (end <= mark.atMs) return;
    if (mark.viseme === 'rest') {
      paused = segments.length > 0;
      return;
    }
    if (paused) phrase++;
    paused = false;
    segments.push({ viseme: mark.viseme, start: mark.atMs, end, voicedStart: voiced, voicedEnd: voiced + end - mark.atMs, phrase });
    voiced += end - mark.atMs;
  });
  return segments;
}

/**
 * eSpeak's voiced time onto the provider's voiced time, piecewise linear: phrase k onto voiced stretch k
 * when both have as many, the whole onto the whole otherwise.
 */
class Warp {
  /** Where each provider stretch starts on the provider's voiced time. */
  readonly providerStart: number[] = [];
  private readonly espeakAnchors: number[];
  private readonly providerAnchors: number[];

  constructor(
    private readonly segments: Segment[],
    private readonly runs: Run[],
  ) {
    let voiced = 0;
    for (const run of runs) {
      this.providerStart.push(voiced);
      voiced += run.end - run.start;
    }
    const espeakTotal = segments[segments.length - 1]!.voicedEnd;
    const phrases = segments[segments.length - 1]!.phrase + 1;
    if (phrases === runs.length) {
      this.espeakAnchors = [...runs.map((_, k) => segments.find((s) => s.phrase === k)!.voicedStart), espeakTotal];
      this.providerAnchors = [...this.providerStart, voiced];
    } else {
      this.espeakAnchors = [0, espeakTotal];
      this.providerAnchors = [0, voiced];
    }
  }

  toProviderVoiced(espeakVoiced: number): number {
    const e = this.espeakAnchors;
    const p = this.providerAnchors;
    let k = 0;
    while (k < e.length - 2 && espeakVoiced >= e[k + 1]!) k++;
    const span = e[k + 1]! - e[k]!;
    return p[k]! + (span > 0 ? ((espeakVoiced - e[k]!) / span) * (p[k + 1]! - p[k]!) : 0);
  }

  /** A point on the provider's voiced time in the audio (a stretch's end belongs to the next stretch's start). */
  toAudio(providerVoiced: number): number {
    let k = 0;
    while (k < this.runs.length - 1 && providerVoiced >= this.providerStart[k + 1]!) k++;
    const run = this.runs[k]!;
    return Math.min(run.end, run.start + providerVoiced - this.providerStart[k]!);
  }

  /** The shape being said at a point on the provider's voiced time. */
  shapeAt(providerVoiced: number): Viseme {
    let shape = this.segments[0]!.viseme;
    for (const s of this.segments) if (this.toProviderVoiced(s.voicedStart) <= providerVoiced + 1e-6) shape = s.viseme;
    return shape;
  }

  /** A point in eSpeak's time on its voiced time (a point in a pause is where the next sound starts). */
  espeakVoicedAt(atMs: number): number {
    for (const s of this.segments) if (atMs < s.end) return s.voicedStart + Math.max(0, atMs - s.start);
    return this.segments[this.segments.length - 1]!.voicedEnd;
  }
}

/** Lips close where the sound dips: each M moves (within its neighbours) to the start of the quietest frames near it. */
function moveClosuresToDips(marks: VisemeMark[], db: Float64Array): void {
  for (let i = 1; i < marks.length - 1; i++) {
    const mark = marks[i]!;
    if (mark.viseme !== 'M' || marks[i - 1]!.viseme === 'rest') continue;
    const lo = Math.max(marks[i - 1]!.atMs + FRAME_MS, mark.atMs - CLOSURE_SEARCH_MS);
    const hi = Math.min(marks[i + 1]!.atMs - FRAME_MS, mark.atMs + CLOSURE_SEARCH_MS);
    let quietest = -1;
    let loudest = -Infinity;
    for (let f = Math.ceil(lo / FRAME_MS); f * FRAME_MS <= hi && f < db.length; f++) {
      loudest = Math.max(loudest, db[f]!);
      if (quietest < 0 || db[f]! < db[quietest]!) quietest = f;
    }
    if (quietest < 0 || loudest - db[quietest]! < CLOSURE_DEPTH_DB) continue;
    // The closure starts where the level falls halfway from the loudest to the dip.
    const half = (loudest + db[quietest]!) / 2;
    let f = quietest;
    while (f - 1 >= Math.ceil(lo / FRAME_MS) && db[f - 1]! < half) f--;
    mark.atMs = f * FRAME_MS;
  }
}

function dedupe(marks: VisemeMark[]): VisemeMark[] {
  const out: VisemeMark[] = [];
  for (const mark of marks) {
    const last = out[out.length - 1];
    if (last && mark.atMs <= last.atMs) {
      last.viseme = mark.viseme;
      continue;
    }
    if (last?.viseme === mark.viseme) continue;
    out.push({ atMs: Math.round(mark.atMs), viseme: mark.viseme });
  }
  return out;
}
