// Plays the PAL's voice from the local room: audio slices arrive over the WebSocket a little ahead of
// time, are scheduled back to back on Web Audio, and come out as a MediaStream audio track — the shape a
// Daily room gives — so the stage plays both providers the same way. It also knows which mouth shape is
// being heard now, for the face.
import type { AudioFrame } from '../../../protocol/room.js';
import { visemeAt, type Viseme } from '../../../protocol/visemes.js';
import { pageEngine } from '../media/page-engine.js';
import { stopTrack } from '../media/shown-tracks.js';

/** Jitter buffer: playback starts this long after the first slice of a run arrives. */
export const JITTER_S = 0.06;
/**
 * The face draws every 40 ms: choosing the shape half a frame ahead of what is at the output puts each
 * shape within ±20 ms of its sound, rather than 0–40 ms behind it.
 */
export const MOUTH_LEAD_S = 0.02;
/** The most an audio output is taken to lag what the context renders (Bluetooth can reach ~0.3 s). */
const MAX_OUTPUT_LAG_S = 0.3;
/** How far an output timestamp may seem ahead of rendering (it is extrapolated between render quanta). */
const OUTPUT_CLOCK_SLACK_S = 0.05;
/**
 * Whether the context may be asked where its output is (getOutputTimestamp(), outputLatency). Not in Gecko
 * (Firefox): it answers both by asking the sound server synchronously with its audio graph locked, and a
 * read that meets the audio callback waiting for that graph freezes the page's main thread for good. Read
 * every 5 ms (heard-latency poll) and 40 ms (face), it froze 4 of 6 Firefox visitor walks; read once a
 * second, 1 of 7. The output is then taken to be where rendering is: a few tens of ms early on a real
 * device.
 */
export const OUTPUT_CLOCK_READABLE = pageEngine() !== 'firefox';
/**
 * How long after the context's output the visitor hears its track (s), by engine. Chromium carries a
 * MediaStreamAudioDestinationNode's track to whatever plays it by WebRTC's audio path (10 ms chunks through a
 * FIFO): in its lip-sync calls an analyser on the track heard a turn's first sound 7-25 ms after the output
 * clock put it (15 at the mean, 16 turns), where Firefox and WebKit heard it within 5 ms (8 turns each;
 * test/realtime/e2e/lip-sync-*.test.ts). Not counted, the face's mouth opened 15 ms early in Chromium.
 */
export const TRACK_DELIVERY_S = { chromium: 0.015, firefox: 0, webkit: 0 } as const;
/** Samples below this (about −60 dBFS) count as silence when finding the first audible one. */
export const AUDIBLE = 33;

/** Where the page measures what the visitor hears (see turn-latency.ts); times on performance.now()'s clock. */
export interface PalAudioProbe {
  /** An audible sample reaches the audio output at `at`. */
  audible(at: number): void;
  /** A mouth shape was drawn at `at` for audio reaching the output at `heardAt`. */
  mouth(at: number, heardAt: number): void;
}

interface Scheduled {
  source: AudioBufferSourceNode;
  start: number;
  end: number;
  viseme: Viseme;
}

/** How long a slice stays in the mouth's timeline after the context rendered it: it is heard up to the output's lag later. */
const HEARD_AFTER_RENDER_S = MAX_OUTPUT_LAG_S + 0.2;

export class PalAudioPlayer {
  readonly #context: AudioContext;
  readonly #output: MediaStreamAudioDestinationNode;
  /** What is scheduled and not yet rendered (stopped on flush). */
  #queue: Scheduled[] = [];
  /**
   * Every slice until it has surely been heard, in order, for the mouth. The queue is not enough: a slice
   * leaves it when the context has rendered it, and the output plays it up to the output's lag later, so a
   * face asking the output's position found the slice being heard already gone (with a lag of a slice or
   * more, Chromium's usual, it found none and kept the mouth closed).
   */
  #timeline: Scheduled[] = [];
  #nextStart = 0;
  readonly #now: () => number;
  readonly #deliveryS: number;
  /** The slice whose mouth shape the face was last given, and the last one reported as drawn. */
  #shown: Scheduled | undefined;
  #drawn: Scheduled | undefined;
  /** The first audible sample of the current run, until it reaches the output; the run's is reported once. */
  #audibleAt: number | null = null;
  #runHeard = false;
  #poll: ReturnType<typeof setInterval> | undefined;
  probe: PalAudioProbe | null = null;

  /**
   * `now`: the page clock the output's timestamps are on (performance.now()), a test's own clock in tests.
   * `deliveryS`: how long after the context's output its track is heard (TRACK_DELIVERY_S).
   */
  constructor(context: AudioContext, now: () => number = () => performance.now(), deliveryS: number = TRACK_DELIVERY_S[pageEngine()]) {
    this.#context = context;
    this.#now = now;
    this.#deliveryS = deliveryS;
    this.#output = context.createMediaStreamDestination();
  }

  /** The PAL's voice as a live audio track. */
  get track(): MediaStreamTrack {
    return this.#output.stream.getAudioTracks()[0]!;
  }

  play(frame: AudioFrame): void {
    const context = this.#context;
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const buffer = context.createBuffer(1, frame.samples.length, frame.sampleRate);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < frame.samples.length; i++) channel[i] = frame.samples[i]! / 32768;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.#output);
    // Back to back while slices keep coming; after a gap, start again behind a small jitter buffer.
    const newRun = this.#nextStart <= context.currentTime;
    const start = Math.max(this.#nextStart, context.currentTime + (newRun ? JITTER_S : 0));
    source.start(start);
    this.#nextStart = start + buffer.duration;
    const scheduled: Scheduled = { source, start, end: this.#nextStart, viseme: visemeAt(frame.viseme) };
    source.addEventListener('ended', () => {
      const at = this.#queue.indexOf(scheduled);
      if (at >= 0) this.#queue.splice(at, 1);
    });
    this.#queue.push(scheduled);
    this.#forgetHeard(context.currentTime - HEARD_AFTER_RENDER_S);
    this.#timeline.push(scheduled);
    if (newRun) this.#runHeard = false;
    if (this.probe && !this.#runHeard) {
      const first = frame.samples.findIndex((v) => v >= AUDIBLE || v <= -AUDIBLE);
      if (first >= 0) {
        this.#runHeard = true;
        this.#awaitOutput(start + first / frame.sampleRate);
      }
    }
  }

  /**
   * The first audible sample of a run is reported once it has actually reached the output, never from its
   * schedule: a busy or device-less page renders late, and the visitor hears it late.
   */
  #awaitOutput(contextTime: number): void {
    // A page too busy to poll may see a new run begin before the last one's first audible sample was
    // reported: that earlier sample still played (or will), so it is the one waited for, not the new run's.
    this.#audibleAt = this.#audibleAt === null ? contextTime : Math.min(this.#audibleAt, contextTime);
    this.#poll ??= setInterval(() => {
      const clock = this.#heardClock();
      if (this.#audibleAt === null) return this.#stopPolling();
      if (clock.position < this.#audibleAt) return;
      const at = clock.at - (clock.position - this.#audibleAt) * 1000;
      this.#stopPolling();
      this.probe?.audible(at);
    }, 5);
  }

  #stopPolling(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
    this.#audibleAt = null;
  }

  /** Where on this context's timeline what the visitor hears is (`position`), at page time `at`: the output, less the track's delivery. */
  #heardClock(): { position: number; at: number } {
    const clock = this.#outputClock();
    return { position: clock.position - this.#deliveryS, at: clock.at };
  }

  /**
   * Where on this context's timeline the audio output is (`position`), at page time `at`: the context's
   * output timestamp where it gives one, else its clock less the output latency (its clock alone where
   * neither may be asked for).
   */
  #outputClock(): { position: number; at: number } {
    const context = this.#context;
    const now = this.#now();
    if (!OUTPUT_CLOCK_READABLE) return { position: context.currentTime, at: now };
    const stamp = context.getOutputTimestamp?.();
    if (stamp?.performanceTime && stamp.contextTime !== undefined) {
      // An output further behind rendering than any real device is (WebKitGTK reports ~0.4 s) is not believed.
      const lag = context.currentTime - (stamp.contextTime + (now - stamp.performanceTime) / 1000);
      if (lag > -OUTPUT_CLOCK_SLACK_S && lag <= MAX_OUTPUT_LAG_S) return { position: stamp.contextTime, at: stamp.performanceTime };
    }
    return { position: context.currentTime - Math.min(MAX_OUTPUT_LAG_S, context.outputLatency || context.baseLatency || 0), at: now };
  }

  /** When a moment of this context's timeline is (or was) heard, on performance.now()'s clock. */
  #outputTime(contextTime: number): number {
    const clock = this.#heardClock();
    return clock.at + (contextTime - clock.position) * 1000;
  }

  /** How long until what is scheduled has played out, in ms. */
  remainingMs(): number {
    return Math.max(0, this.#nextStart - this.#context.currentTime) * 1000;
  }

  /** The mouth shape visemeNow() gave the face reaches the screen at `at` (each slice's first showing is measured). */
  drawn(at: number): void {
    const slice = this.#shown;
    if (!this.probe || !slice || slice === this.#drawn || slice.viseme === 'rest') return;
    this.#drawn = slice;
    this.probe.mouth(at, this.#outputTime(slice.start));
  }

  /** Drops everything scheduled (the PAL was interrupted): silence within one audio callback. */
  flush(): void {
    for (const { source } of this.#queue) {
      try {
        source.stop();
      } catch {
        /* never started */
      }
      source.disconnect();
    }
    this.#queue = [];
    this.#timeline = [];
    this.#nextStart = 0;
    this.#runHeard = false;
    this.#stopPolling();
  }

  /** Whether the PAL's voice is being heard now. */
  speaking(): boolean {
    return this.#context.currentTime < this.#nextStart;
  }

  /**
   * The mouth shape of what is being heard now (at the audio output, which runs behind rendering by the
   * output's lag), or `aheadMs` from now: a face whose drawing reaches the screen that much later asks that far
   * ahead, so the visitor sees the shape when they hear it.
   */
  visemeNow(aheadMs = 0): Viseme {
    const clock = this.#heardClock();
    const now = clock.position + (this.#now() - clock.at + aheadMs) / 1000 + MOUTH_LEAD_S;
    this.#shown = this.#timeline.find((s) => s.start <= now && now < s.end);
    return this.#shown?.viseme ?? 'rest';
  }

  /** Drops the slices that ended before `contextTime`: the timeline holds only what is scheduled or still in the output. */
  #forgetHeard(contextTime: number): void {
    let heard = 0;
    while (heard < this.#timeline.length && this.#timeline[heard]!.end < contextTime) heard++;
    if (heard) this.#timeline.splice(0, heard);
  }

  close(): void {
    this.flush();
    stopTrack(this.track);
  }
}
