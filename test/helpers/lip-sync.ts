// The lip-sync instruments of the end-to-end tests (issue 32), the same in every engine: a page script that
// samples the PAL's <video> (its mouth region, each presented frame, at the frame's display time) and an
// analyser on the PAL's audio (5 ms bins at their output time), both on the page's clock; the analysis of
// one recording into the issue's figures; and the check of those figures against the issue's bars.
import assert from 'node:assert/strict';
import { reportFigure } from './figures.js';
import { pageProbes } from './page-probes.js';

/** The faces draw at 25 frames a second. */
export const FACE_FRAME_MS = 40;
/** A frame shown this close to another may be the same frame of the face's loop shown again. */
const REPEAT_MS = 150;
/** A 5 ms bin with a peak above this is audible. */
export const AUDIBLE = 0.003;

/** Where the mouth is on the face's frame (the frame's own pixels: `width`×`height`). */
export interface MouthBox {
  x: number;
  y: number;
  w: number;
  h: number;
  width: number;
  height: number;
}

/** Ada's mouth on her 960×540 frame. */
export const ADA_MOUTH: MouthBox = { x: 430, y: 290, w: 100, h: 70, width: 960, height: 540 };

/** The mouth of a trained face's rig: around every pose's mouth of its idle loop, with room for an open mouth. */
export function rigMouth(rig: { width: number; height: number; poses: Array<{ x: number; y: number; width: number }> }): MouthBox {
  const left = Math.min(...rig.poses.map((p) => p.x - p.width * 0.6));
  const right = Math.max(...rig.poses.map((p) => p.x + p.width * 0.6));
  const top = Math.min(...rig.poses.map((p) => p.y - p.width * 0.3));
  const bottom = Math.max(...rig.poses.map((p) => p.y + p.width * 0.5));
  return { x: left, y: top, w: right - left, h: bottom - top, width: rig.width, height: rig.height };
}

/**
 * The visitor says nothing: the page's microphone is a silent track (a camera asked for with it is the engine's fake one).
 * The engines' fake microphones play a tone, which the PAL's ears took for the visitor speaking over the
 * greeting: Firefox's and WebKit's cut it off after 0.2–0.4 s in most calls (the recording then held the
 * typed question only).
 */
export const silentMicrophone = `
if (navigator.mediaDevices?.getUserMedia && !window.__silentMicrophone) {
  window.__silentMicrophone = true;
  // On the prototype: WebKit loses a patch set on navigator.mediaDevices itself (helpers/fake-microphone.ts).
  const real = MediaDevices.prototype.getUserMedia;
  MediaDevices.prototype.getUserMedia = async function (constraints = {}) {
    if (!constraints.audio) return real.call(this, constraints);
    const stream = constraints.video ? await real.call(this, { video: constraints.video }) : new MediaStream();
    const silence = new AudioContext().createMediaStreamDestination();
    stream.addTrack(silence.stream.getAudioTracks()[0]);
    return stream;
  };
}
`;

/**
 * The page script: `window.__lip = { frames, levels }` filled as the call goes, and `__lip.spokenSince(t, quietMs)`:
 * a voice heard after `t` and the last `quietMs` (default a second) quiet. Its AudioContext starts on the visitor's first gesture
 * (Firefox and WebKit start a context made without one suspended).
 */
export const lipInstruments = (box: MouthBox): string => `${pageProbes}
if (!window.__lip) {
  window.__lip = { frames: [], levels: [], clocks: {}, frameClock: null };
  const canvas = document.createElement('canvas');
  canvas.width = 24; canvas.height = 16;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  let video = null;
  const grab = (at) => {
    if (!video.videoWidth) return;
    const sx = ${box.x} * video.videoWidth / ${box.width}, sy = ${box.y} * video.videoHeight / ${box.height};
    context.drawImage(video, sx, sy, ${box.w} * video.videoWidth / ${box.width}, ${box.h} * video.videoHeight / ${box.height}, 0, 0, 24, 16);
    const data = context.getImageData(0, 0, 24, 16).data;
    const grey = [];
    for (let i = 0; i < data.length; i += 4) grey.push(Math.round((data[i] + data[i + 1] + data[i + 2]) / 3));
    window.__lip.frames.push({ at, grey });
  };
  // Each frame the <video> presents, stamped with when it is (expected to be) on the screen, not when this
  // callback ran: Chromium's expected display time (the vsync after its presentation); Firefox's is the paint
  // that takes it (its callback's time, no later than its presentation), on the screen a refresh later.
  // WebKitGTK has requestVideoFrameCallback but never calls it for a MediaStream: there, the <video> is read
  // at each animation frame, and a reading is kept when it differs from the last (a frame presented), stamped
  // a refresh after that frame's time, as the paint it goes into is on the screen then. (Stamped at the paint,
  // Firefox's and WebKit's mouths measured a refresh early against Chromium's, and against the look-ahead the
  // faces ask for, media/face/presentation.ts.)
  const REFRESH_MS = 1000 / 60;
  const sample = (now, meta) => {
    // The animation frames read the <video> until this first call: their readings go, as they are stamped
    // by another clock (in Chromium and Firefox this call comes within a frame or two of the first).
    if (window.__lip.frameClock !== 'requestVideoFrameCallback') window.__lip.frames.length = 0;
    window.__lip.frameClock = 'requestVideoFrameCallback';
    grab(meta.expectedDisplayTime > meta.presentationTime ? meta.expectedDisplayTime : (meta.presentationTime || now) + REFRESH_MS);
    video.requestVideoFrameCallback(sample);
  };
  // An animation frame reads the <video> only once it counts a frame more (WebKitGTK counts a stream's frames
  // in getVideoPlaybackQuality()), and the next one too when that reading found the last frame's pixels: its
  // animation frames come 80-100 a second for 25 frames, and reading the <video> at each (a drawImage of the
  // whole frame) was most of the page's main-thread work in a loaded call, with stalls of 120-600 ms to show
  // for it. An engine that does not count reads at every animation frame.
  let last = '';
  let counted = -1;
  let reads = 0;
  const paint = (now) => {
    if (window.__lip.frameClock !== 'requestVideoFrameCallback') {
      const count = video.getVideoPlaybackQuality?.().totalVideoFrames;
      if (typeof count !== 'number') reads = 1;
      else if (count !== counted) (counted = count), (reads = 2);
      if (reads > 0) {
        reads--;
        const before = window.__lip.frames.length;
        grab(now + REFRESH_MS);
        if (window.__lip.frames.length > before) {
          window.__lip.frameClock = 'animation frames';
          const key = window.__lip.frames.at(-1).grey.join(',');
          if (key === last) window.__lip.frames.pop();
          else (last = key), (reads = 0);
        }
      }
      requestAnimationFrame(paint);
    }
  };
  const audio = new AudioContext();
  for (const type of ['pointerdown', 'click', 'touchstart', 'keydown']) window.addEventListener(type, () => audio.resume(), true);
  // The PAL's audio in 5 ms bins at their output time (page-probes.ts outputLevels), and how each poll stamped them.
  const listen = (stream) => window.__probes.outputLevels(audio, stream, { binMs: 5 }, (level) => window.__lip.levels.push(level), (clock, rate) => {
    window.__lip.clocks[clock] = (window.__lip.clocks[clock] ?? 0) + 1;
    window.__lip.audioRate = rate;
  });
  window.__lip.spokenSince = (since, quietMs = 1000) => {
    const levels = window.__lip.levels, bins = quietMs / 5;
    return levels.some((l) => l.at > since && l.peak > ${AUDIBLE}) && levels.length > bins && levels.slice(-bins).every((l) => l.peak <= ${AUDIBLE});
  };
  // The PAL's turns as the page hears of them (started, stopped, and whether the visitor cut it off).
  window.__lip.speech = [];
  // Where the page's own player put each reply's first audible sample (pal-turn-latency: its epoch time plus ms).
  window.__lip.heard = [];
  window.addEventListener('pal-turn-latency', (event) => {
    const { turnEndedAt, heardMs } = event.detail ?? {};
    if (typeof heardMs === 'number') window.__lip.heard.push(turnEndedAt - performance.timeOrigin + heardMs);
  }, true);
  window.addEventListener('pal-protocol-message', (event) => {
    const type = event.detail?.event_type;
    if (type === 'conversation.replica.started_speaking' || type === 'conversation.replica.stopped_speaking' || type === 'conversation.user.started_speaking') {
      window.__lip.speech.push({ at: performance.now(), type: type.split('.').slice(1).join('.'), interrupted: event.detail.properties?.interrupted === true });
    }
  }, true);
  // The page's main thread: each time it answered this 20 ms timer more than 100 ms late (a stall).
  window.__lip.stalls = [];
  let beat = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - beat > 120) window.__lip.stalls.push({ at: beat, ms: Math.round(now - beat) });
    beat = now;
    const found = window.__probes.inside('pal-stage', 'video.pal');
    if (found && found.srcObject instanceof MediaStream && found !== video) {
      const first = !video;
      if (first) window.__lip.videoAt = now;
      video = found;
      if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(sample);
      // Read from the first animation frame on: waiting a second to see whether requestVideoFrameCallback
      // answers left WebKit's first second of the face unread (its first frame then measured a second late).
      if (first) requestAnimationFrame(paint);
    }
    // Looked for only until it is heard.
    const stream = window.__lip.listening ? null : window.__probes.stageStream();
    if (stream) {
      window.__lip.listening = true;
      window.__lip.streamAt = now;
      listen(stream);
    }
  }, 20);
}
`;

export interface Recording {
  frames: Array<{ at: number; grey: number[] }>;
  levels: Array<{ at: number; peak: number }>;
  /** How the audio was stamped, poll by poll: the context's output timestamp, or now plus the output latency. */
  clocks?: Record<string, number>;
  /** How the frames were stamped: requestVideoFrameCallback's display time, or the animation frame's. */
  frameClock?: string | null;
  /** How fast the analyser's audio clock ran against the page's (1: real time). */
  audioRate?: number;
  /** When the PAL's <video> and audio stream were found, and the main thread's stalls over 120 ms. */
  videoAt?: number;
  streamAt?: number;
  stalls?: Array<{ at: number; ms: number }>;
  /** The PAL's turns as the page heard of them ('replica.started_speaking', …), and whether one was cut off. */
  speech?: Array<{ at: number; type: string; interrupted: boolean }>;
  /** Where the page's player put each reply's first audible sample (the greeting has no turn before it). */
  heard?: number[];
}

export interface Figures {
  voicedWindows: number;
  movedShare: number;
  silentWindows: number;
  restedShare: number;
  lagMs: number;
  firstMotionMs: number[];
  /** The face's first frame came this long after the voice began. */
  faceLateMs?: number;
  /** Per reply, where the page's player put its first audible sample less where the analyser heard it. */
  playerHeardMs: number[];
  /**
   * Per turn of firstMotionMs, how long after its first audible sample the <video> presented its next frame: a
   * first motion can come no sooner (a late frame is the page's or the engine's, whatever mouth it shows).
   */
  nextFrameMs?: number[];
  /** Distinct mouth-region frames the <video> presented a second, over the voiced stretch. */
  framesPerSecond?: number;
}

/** The figures of one recording (all times on the page's clock, ms). */
export function analyseLipSync(recording: Recording): Figures {
  // In time order: where the audio is stamped at each poll's time (Firefox, WebKit), a poll's bins may
  // overlap the last one's by the jitter between the context's clock and the page's.
  const levels = [...recording.levels].sort((a, b) => a.at - b.at);
  const frames = [...recording.frames].sort((a, b) => a.at - b.at);
  const audible = levels.filter((l) => l.peak > AUDIBLE).map((l) => l.at);
  assert.ok(audible.length > 50, 'the analyser heard the greeting');
  assert.ok(frames.length > 0, 'the <video> presented frames');
  const near = (t: number, ms: number) => audible.some((a) => Math.abs(a - t) <= ms);
  // The resting mouth: the frames of the quiet before the voice, between turns and after it (none within
  // 300 ms of a sound). A frame's change is its distance to the nearest of them shown at another time (more
  // than REPEAT_MS away): a trained face's idle loop moves the head, so one rest frame would count the loop's
  // motion as speech, while the same loop frame shown in silence differs from a speaking one by the mouth only.
  const quiet = frames.filter((f) => !near(f.at, 300));
  assert.ok(quiet.length >= 5, `${quiet.length} frames shown in silence`);
  const distance = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;
  const change = frames.map((f) => ({
    at: f.at,
    change: Math.min(...quiet.filter((q) => Math.abs(q.at - f.at) > REPEAT_MS).map((q) => distance(f.grey, q.grey))),
  }));
  const quietChange = change
    .filter((c) => !near(c.at, 300))
    .map((c) => c.change)
    .sort((a, b) => a - b);
  // Moving: clearly beyond what blinks and the video's noise do to the resting mouth.
  const threshold = Math.max(2, 2 * quietChange[Math.floor(quietChange.length * 0.95)]!);
  const moving = (c: { change: number }) => c.change > threshold;

  const from = audible[0]! - 1000;
  const to = audible.at(-1)! + 1000;
  const audibleShare = (a: number, b: number) => {
    const inside = levels.filter((l) => l.at >= a && l.at < b);
    return inside.length ? inside.filter((l) => l.peak > AUDIBLE).length / inside.length : 0;
  };
  let voicedWindows = 0,
    moved = 0,
    silentWindows = 0,
    rested = 0;
  for (let t = from; t + 100 <= to; t += 100) {
    // The frames presented in the window, and the one on the screen as it began.
    const onScreen = change.findLast((c) => c.at < t);
    const shown = [...(onScreen ? [onScreen] : []), ...change.filter((c) => c.at >= t && c.at < t + 100)];
    if (!shown.length) continue;
    if (audibleShare(t, t + 100) >= 0.8) {
      voicedWindows++;
      if (shown.some(moving)) moved++;
    } else if (audibleShare(t - 100, t + 200) === 0) {
      silentWindows++;
      if (!shown.some(moving)) rested++;
    }
  }

  // The lag: the shift of the mouth's motion that best matches the voice's audibility, on a 5 ms grid.
  const grid = (t: number) => Math.round((t - from) / 5);
  const size = grid(to) + 1;
  const voice = new Float64Array(size);
  for (const l of levels) if (l.at >= from && l.at <= to) voice[grid(l.at)] = l.peak > AUDIBLE ? 1 : 0;
  const mouth = new Float64Array(size);
  for (let i = 0, k = 0; i < size; i++) {
    while (k + 1 < change.length && grid(change[k + 1]!.at) <= i) k++;
    mouth[i] = change[k] && grid(change[k]!.at) <= i && moving(change[k]!) ? 1 : 0;
  }
  let best = { lag: 0, score: -Infinity };
  for (let lag = -40; lag <= 40; lag++) {
    let score = 0;
    for (let i = Math.max(0, -lag); i < size && i + lag < size; i++) score += voice[i]! === mouth[i + lag]! ? 1 : 0;
    if (score > best.score) best = { lag, score };
  }

  // Each turn (a sound after ≥ 500 ms of silence): its first audible sample to the mouth's first motion after it.
  // A turn that began before the face's first frame reached the <video> (a trained face still loading its
  // rig) is reported apart: it measures the loading, not the lip sync.
  const turns = audible.filter((a, i) => i === 0 || a - audible[i - 1]! >= 500);
  const firstMotionMs: number[] = [];
  const nextFrameMs: number[] = [];
  let beforeFace: number | undefined;
  for (const a of turns) {
    if (a < frames[0]!.at) {
      beforeFace ??= frames[0]!.at - a;
      continue;
    }
    const first = change.find((c) => c.at >= a - 100 && moving(c));
    firstMotionMs.push(first ? first.at - a : Infinity);
    const next = frames.find((f) => f.at >= a);
    nextFrameMs.push(next ? next.at - a : Infinity);
  }
  const voicedFrames = frames.filter((f) => f.at >= audible[0]! && f.at <= audible.at(-1)!).length;
  // The player's own figure against the analyser's, for each reply: the turn that began nearest it.
  const playerHeardMs = (recording.heard ?? []).map((at) =>
    turns.reduce((near, t) => (Math.abs(at - t) < Math.abs(near) ? at - t : near), Infinity),
  );
  return {
    voicedWindows,
    movedShare: moved / voicedWindows,
    silentWindows,
    restedShare: rested / silentWindows,
    lagMs: best.lag * 5,
    firstMotionMs,
    playerHeardMs,
    nextFrameMs,
    framesPerSecond: (voicedFrames * 1000) / Math.max(1, audible.at(-1)! - audible[0]!),
    ...(beforeFace !== undefined ? { faceLateMs: beforeFace } : {}),
  };
}

const percent = (x: number) => `${(x * 100).toFixed(0)} %`;

/** The figures in one line, as the tests print them. */
export function describeLipSync(name: string, f: Figures): string {
  return `${name}: mouth moved in ${percent(f.movedShare)} of ${f.voicedWindows} voiced 100 ms windows, rested in ${percent(f.restedShare)} of ${f.silentWindows} silent ones; lag ${f.lagMs} ms (mouth after voice); first motion per turn ${f.firstMotionMs.map((m) => `${Math.round(m)} ms`).join(', ')}; the player heard each reply ${f.playerHeardMs.map((m) => `${Math.round(m)} ms`).join(', ')} from the analyser${f.nextFrameMs ? `; the <video>'s next frame after each turn's first sound ${f.nextFrameMs.map((m) => `${Math.round(m)} ms`).join(', ')}` : ''}${f.framesPerSecond !== undefined ? `; ${f.framesPerSecond.toFixed(1)} frames a second while it spoke` : ''}${f.faceLateMs !== undefined ? `; the face's first frame ${Math.round(f.faceLateMs)} ms after the voice began` : ''}`;
}

/** A row's figures for the results (test/helpers/figures.ts), each against its bar of assertLipSync. */
export function reportLipSync(name: string, f: Figures): void {
  const meanFirst = f.firstMotionMs.length > 0 ? f.firstMotionMs.reduce((sum, ms) => sum + Math.abs(ms), 0) / f.firstMotionMs.length : NaN;
  reportFigure({
    name: `${name}: mouth moving, voiced windows`,
    value: f.movedShare * 100,
    unit: '%',
    better: 'higher',
    bar: '≥ 95',
    met: f.movedShare >= 0.95,
  });
  reportFigure({
    name: `${name}: mouth resting, silent windows`,
    value: f.restedShare * 100,
    unit: '%',
    better: 'higher',
    bar: '≥ 90',
    met: f.restedShare >= 0.9,
  });
  reportFigure({ name: `${name}: lag`, value: f.lagMs, unit: 'ms', bar: '±40', met: Math.abs(f.lagMs) <= 40 });
  if (!Number.isNaN(meanFirst))
    reportFigure({ name: `${name}: first motion, mean`, value: meanFirst, unit: 'ms', better: 'lower', bar: '≤ 50', met: meanFirst <= 50 });
  if (f.playerHeardMs.length > 0)
    reportFigure({
      name: `${name}: player vs analyser, max`,
      value: Math.max(...f.playerHeardMs.map(Math.abs)),
      unit: 'ms',
      better: 'lower',
    });
}

/**
 * The issue's bars: the mouth moves in ≥ 95 % of the voiced 100 ms windows and rests in ≥ 90 % of the
 * silent ones, the lag is within ±40 ms, and the mouth first moves within 50 ms of a turn's first audible
 * sample (the turns' mean; each turn within 50 ms plus one 40 ms frame of the face, the chance a face
 * drawing a frame every 40 ms carries).
 */
export function assertLipSync(name: string, f: Figures): void {
  assert.ok(f.voicedWindows >= 20, `${name}: ${f.voicedWindows} voiced windows`);
  assert.ok(f.movedShare >= 0.95, `${name}: the mouth moved in ${percent(f.movedShare)} of the voiced windows`);
  assert.ok(f.restedShare >= 0.9, `${name}: the mouth rested in ${percent(f.restedShare)} of the silent windows`);
  assert.ok(Math.abs(f.lagMs) <= 40, `${name}: lag ${f.lagMs} ms`);
  assert.ok(f.firstMotionMs.length > 0, `${name}: no turn began after the face's first frame`);
  const mean = f.firstMotionMs.reduce((sum, ms) => sum + Math.abs(ms), 0) / f.firstMotionMs.length;
  assert.ok(
    mean <= 50,
    `${name}: first motion ${Math.round(mean)} ms from the first audible sample on average (${f.firstMotionMs.map(Math.round).join(', ')} ms)`,
  );
  for (const ms of f.firstMotionMs)
    assert.ok(Math.abs(ms) <= 50 + FACE_FRAME_MS, `${name}: first motion ${ms} ms from the first audible sample`);
}
