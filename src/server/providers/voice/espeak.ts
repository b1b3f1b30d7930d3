// The local voice: eSpeak NG, in a pool of speakers (espeak/instance.ts) that serves the
// rooms by engine time (one lane per room, see fair-queue.ts): the room that has had the least time goes
// next, so a sentence waits only behind its own room's sentences, and one cancelled before it reaches a
// speaker costs nothing. Background lanes (speech items, videos) get a speaker only when no room waits.
// Work with slack (background pieces, and the later pieces of an utterance already under way, which
// its playing audio covers) never takes the last free speaker: a room waiting for its first words finds
// one at once instead of waiting behind another room's piece. By default a speaker is eSpeak
// compiled to WebAssembly on a worker thread of its own (espeak/wasm-speaker.ts): nothing outside npm,
// on any platform. On Linux, PALKIT_LOCAL_VOICE=native uses small bridge programs instead
// (espeak/palkit-espeak.c, compiled once against libespeak-ng, see espeak/bridge-binary.ts). Either way
// each text comes back with the synthesiser's own word and phoneme timing. A speaker that dies (a
// crashed or hung thread, a killed process) is replaced, and the sentence it was saying is said again
// once by the new one, resuming where the dead one stopped. Where no bridge can be built, or bridges keep
// dying, the native engine uses the espeak-ng command line, with timing estimated from the text.
import { availableParallelism } from 'node:os';
import type { Logger } from '../../platform/log.js';
import { BridgeBinary } from './espeak/bridge-binary.js';
import { viaCommandLine } from './espeak/command-line.js';
import { nativeSpeakers } from './espeak/native-speaker.js';
import { espeakVoice } from './espeak/voice-names.js';
import type { Speaker, SpeakerFactory, SpeakerRequest } from './espeak/instance.js';
import { WasmSpeaker, type WasmSpeakerOptions } from './espeak/wasm-speaker.js';
import { FairQueue } from './fair-queue.js';
import { settle, speakerRequest, type Job } from './espeak/sentence.js';
import {
  DEFAULT_WORDS_PER_MINUTE,
  SynthesisError,
  type SynthesisEvent,
  type SynthesisStream,
  type Synthesizer,
  type VoiceChoice,
} from './synthesizer.js';

export type LocalVoiceEngine = 'wasm' | 'native';

const DEFAULT_LANE = '';
/** Sentences one room may have waiting; a room speaks one utterance at a time, two sentences ahead. */
const PER_LANE = 8;
/**
 * Native bridges in the pool, whatever the cores. A speaker is held from a sentence's request until the event
 * loop has read the sentence's end, so under load a sentence holds one for the loop's delay, not for the
 * engine's few milliseconds: two bridges on a 2-core machine (one per core) left later sentences of 200
 * calls waiting up to 5 s for one, four up to 2 s (rooms bench). A bridge is a small process.
 */
const BRIDGES = 4;
/**
 * WebAssembly speakers: one per core, at most this many. Each is a thread holding about 140 MB that takes
 * seconds to warm up (four on this 2-core machine: 656 MB, against 378 MB for two).
 */
const MAX_WASM_SPEAKERS = 4;
/** A sentence's engine time is first estimated from its length, then charged as measured: the first estimate per character. */
const FIRST_MS_PER_CHAR = 0.5;
/** Lanes of background work (speech items, videos): served only when no room waits. */
const BACKGROUND = 'background:';
/** A sentence is tried on at most this many speakers. */
const ATTEMPTS = 2;
/**
 * Speakers that die this many times in a row without finishing a sentence cannot speak here (a broken
 * library, say): for a while the command line speaks (native) or sentences fail at once (WebAssembly,
 * rather than starting thread after thread), then speakers are tried again. Deaths between finished
 * sentences (a killed process, a terminated thread) are replaced, not given up on.
 */
const CRASH_LIMIT = 3;
const FALLBACK_MS = 60_000;

export interface EspeakOptions {
  /** 'wasm' (the default: eSpeak NG in WebAssembly on worker threads) or 'native' (the C bridge, Linux). */
  engine?: LocalVoiceEngine;
  /** PALKIT_DATA ('memory' for a service without files): the native bridge is built under it. */
  dataDir?: string;
  /** Speakers in the pool (default: BRIDGES native ones, or a WebAssembly one per core, at most MAX_WASM_SPEAKERS). */
  speakers?: number;
  /** The WebAssembly speakers' settings (tests plant faults with them). */
  wasm?: WasmSpeakerOptions;
  /** Where speakers come from instead of the engine's own (tests). */
  speakerFactory?: SpeakerFactory;
  /** The clock that measures engine time (milliseconds; tests control it). */
  now?: () => number;
}

export class EspeakSynthesizer implements Synthesizer {
  readonly name = 'espeak-ng';
  readonly engine: LocalVoiceEngine;
  private readonly start: SpeakerFactory;
  private readonly size: number;
  private readonly queue: FairQueue<Job>;
  private readonly now: () => number;
  /** Engine milliseconds per character, as measured (a moving average). */
  private msPerChar = FIRST_MS_PER_CHAR;
  /** Pieces with slack (see Job.slack) being said now. */
  private slackRunning = 0;
  private readonly idle: Speaker[] = [];
  private readonly speakers = new Set<Speaker>();
  /** Sentences being said now: by a speaker or by the command line. */
  private running = 0;
  private sampleRate = 22050;
  private nextId = 1;
  /** Lanes with a sentence being said: one at a time per room, so one room never holds every speaker. */
  private readonly busyLanes = new Set<string>();
  private readonly active = new Set<Job>();
  private crashesInARow = 0;
  /** Sentences handed to a speaker, samples speakers returned (heard or not), and speakers that died: what the pool really did. */
  readonly work = { sentences: 0, samples: 0, deaths: 0 };
  private fallbackUntil = 0;
  private closed = false;

  constructor(
    private readonly log: Logger,
    options: EspeakOptions = {},
  ) {
    this.engine = options.engine ?? 'wasm';
    const wasm = options.wasm ?? {};
    this.now = options.now ?? (() => performance.now());
    this.queue = new FairQueue<Job>(PER_LANE, {
      cost: (job) => (job.estimateMs = Math.max(1, job.chars.length * this.msPerChar)),
      background: (lane) => lane.startsWith(BACKGROUND),
    });
    this.start =
      options.speakerFactory ??
      (this.engine === 'native'
        ? nativeSpeakers(new BridgeBinary(options.dataDir ?? 'memory', log), log)
        : (hooks) => (WasmSpeaker.available() ? new WasmSpeaker(hooks, wasm) : null));
    this.size = Math.max(1, options.speakers ?? (this.engine === 'native' ? BRIDGES : Math.min(MAX_WASM_SPEAKERS, availableParallelism())));
    // A WebAssembly speaker takes seconds to load and warm up: the first one starts now, not with the first sentence.
    if (this.engine === 'wasm' && !options.speakerFactory) {
      const first = this.newSpeaker();
      if (first) this.idle.push(first);
    }
  }

  synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream> {
    return this.enqueue(DEFAULT_LANE, text, espeakVoice(voice), voice.rate, signal, voice.continues === true);
  }

  /** Sentences waiting for a speaker (rooms' and speech items' alike), and how long the oldest has waited. */
  get backlog(): { sentences: number; oldestWaitMs: number } {
    let oldest = Infinity;
    for (const job of this.queue.heads()) oldest = Math.min(oldest, job.queuedAt);
    return { sentences: this.queue.size, oldestWaitMs: Number.isFinite(oldest) ? this.now() - oldest : 0 };
  }

  /** This synthesiser as one room sees it: its sentences queue in their own lane. */
  lane(key: string): Synthesizer {
    return {
      name: this.name,
      synthesize: (text, voice, signal) =>
        this.enqueue(`room:${key}`, text, espeakVoice(voice), voice.rate, signal, voice.continues === true),
    };
  }

  /**
   * A text in one of eSpeak's own voice names (`en-us`, `de`, `en+f3`…), in a background lane of its own
   * (speech items): it yields to the rooms. Give it a chunk at a time (chunksOf in speech-pieces.ts).
   */
  synthesizeAs(lane: string, text: string, espeakVoiceName: string, signal: AbortSignal): Promise<SynthesisStream> {
    return this.enqueue(`${BACKGROUND}${lane}`, text, espeakVoiceName, undefined, signal, true);
  }

  /** Closed: it speaks no more (a new pool is made for whoever needs one). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** The running speakers (for operators and tests). */
  get liveSpeakers(): Speaker[] {
    return [...this.speakers];
  }

  /** Process ids of the running native bridges (for operators and tests). */
  get bridgePids(): number[] {
    return this.engine === 'native' ? [...this.speakers].flatMap((s) => (s.id ? [s.id] : [])) : [];
  }

  close(): void {
    this.closed = true;
    for (const speaker of this.speakers) speaker.stop();
    this.speakers.clear();
    this.idle.length = 0;
    for (const job of [...this.queue.drain(), ...this.active]) settle(job, new SynthesisError('unavailable', 'the local voice stopped'));
  }

  private async enqueue(
    lane: string,
    text: string,
    voice: string,
    rate: number | undefined,
    signal: AbortSignal,
    slack: boolean,
  ): Promise<SynthesisStream> {
    const clean = speakableText(text);
    const events: Array<SynthesisEvent | null> = [];
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    const job: Job = {
      lane,
      queuedAt: this.now(),
      id: this.nextId++,
      text: clean,
      chars: [...clean],
      voice,
      rate: Math.round(rate ?? DEFAULT_WORDS_PER_MINUTE),
      signal,
      slack,
      attempts: 0,
      delivered: { audio: 0, word: 0, phoneme: 0 },
      skip: { audio: 0, word: 0, phoneme: 0 },
      settled: false,
      speaker: null,
      startedAt: 0,
      estimateMs: 0,
      push: (event, error) => {
        if (error) failure = error;
        else events.push(event);
        wake?.();
      },
    };
    if (this.nextId > 0x7ffffff0) this.nextId = 1;
    if (!clean) job.push(null);
    else if (this.closed) throw new SynthesisError('unavailable', 'the local voice stopped');
    else if (!this.queue.push(lane, job))
      throw new SynthesisError('unavailable', 'the local voice has too many sentences waiting in this room');
    const onAbort = () => {
      this.queue.remove(lane, job);
      job.settled = true;
      job.speaker?.cancel(job.id);
      wake?.();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.dispatch();
    async function* stream(): AsyncGenerator<SynthesisEvent> {
      try {
        for (;;) {
          const event = events.shift();
          if (event) yield event;
          else if (event === null) return;
          else if (failure) throw failure;
          else if (signal.aborted) return;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        onAbort();
        signal.removeEventListener('abort', onAbort);
      }
    }
    return { sampleRate: this.sampleRate, events: stream() };
  }

  /**
   * Starts waiting sentences while there is room in the pool, the least served room first. Work with
   * slack never takes the last free speaker, so a room's first words find one.
   */
  private dispatch(): void {
    const slackShare = Math.max(1, this.size - 1);
    while (!this.closed && this.running < this.size) {
      const job = this.queue.shift((lane, first) => !this.busyLanes.has(lane) && (!first.slack || this.slackRunning < slackShare));
      if (!job) return;
      if (job.settled || job.signal.aborted) {
        this.queue.charge(job.lane, -job.estimateMs); // it never ran
        continue;
      }
      this.running++;
      if (job.slack) this.slackRunning++;
      this.busyLanes.add(job.lane);
      this.active.add(job);
      job.attempts++;
      job.startedAt = this.now();
      const speaker = this.now() >= this.fallbackUntil ? this.freeSpeaker() : null;
      job.speaker = speaker;
      if (speaker) {
        this.work.sentences++;
        speaker.run(speakerRequest(job, (samples) => (this.work.samples += samples)));
      } else if (this.engine === 'native') {
        void viaCommandLine(job, this.sampleRate, (event) => !job.settled && job.push(event))
          .then(
            () => settle(job),
            (error: unknown) => settle(job, error instanceof Error ? error : new SynthesisError('unavailable', String(error))),
          )
          .finally(() => this.finished(job));
      } else {
        settle(job, new SynthesisError('unavailable', 'the local voice could not start'));
        this.finished(job);
      }
    }
  }

  private finished(job: Job): void {
    this.release(job);
    this.dispatch();
  }

  /** The job leaves its speaker: its lane is charged the engine time it really took, instead of the estimate. */
  private release(job: Job): void {
    job.speaker = null;
    this.running--;
    if (job.slack) this.slackRunning--;
    this.busyLanes.delete(job.lane);
    this.active.delete(job);
    const tookMs = Math.max(0, this.now() - job.startedAt);
    this.queue.charge(job.lane, tookMs - job.estimateMs);
    job.estimateMs = 0;
    if (job.chars.length >= 20 && job.settled && !job.signal.aborted)
      this.msPerChar = 0.8 * this.msPerChar + 0.2 * (tookMs / job.chars.length);
  }

  /**
   * An idle speaker, warm ones first: a replacement thread takes seconds to load and its first sentences
   * are slow, so it gets a sentence only when no warm speaker is free.
   */
  private freeSpeaker(): Speaker | null {
    const warm = this.idle.findIndex((s) => s.warm);
    if (warm >= 0) return this.idle.splice(warm, 1)[0]!;
    return this.idle.pop() ?? this.newSpeaker();
  }

  private newSpeaker(): Speaker | null {
    const speaker = this.start({
      onDeath: (s, request, reason) => this.died(s, request, reason),
      onIdle: (s, request) => {
        if (s.sampleRate) this.sampleRate = s.sampleRate;
        this.crashesInARow = 0;
        this.idle.push(s);
        this.finished((request as SpeakerRequest & { job: Job }).job);
      },
    });
    if (speaker) this.speakers.add(speaker);
    return speaker;
  }

  /** A speaker ended without being asked to: replaced on demand; its sentence goes again once, first in its room's lane. */
  private died(speaker: Speaker, request: SpeakerRequest | null, reason: string): void {
    this.speakers.delete(speaker);
    this.work.deaths++;
    const at = this.idle.indexOf(speaker);
    if (at >= 0) this.idle.splice(at, 1);
    if (++this.crashesInARow >= CRASH_LIMIT && !this.closed) {
      this.crashesInARow = 0;
      this.fallbackUntil = this.now() + FALLBACK_MS;
      this.log.error(
        this.engine === 'native'
          ? 'espeak bridges keep dying; the espeak-ng command line speaks for a minute'
          : 'the local voice keeps failing; it is tried again in a minute',
        { reason },
      );
    } else {
      this.log.error('a local voice speaker stopped; another takes over', { reason, engine: this.engine, id: speaker.id });
    }
    // Its replacement starts loading its voice now, so a retried sentence does not wait for that too.
    if (!this.closed && this.now() >= this.fallbackUntil && this.speakers.size < this.size) {
      const spare = this.newSpeaker();
      if (spare) this.idle.push(spare);
    }
    const job = request ? (request as SpeakerRequest & { job: Job }).job : null;
    if (job) {
      this.release(job);
      if (job.settled || job.signal.aborted) {
        // Nobody is waiting for it any more.
      } else if (job.attempts < ATTEMPTS && !this.closed) {
        job.skip = { ...job.delivered };
        this.queue.push(job.lane, job, true);
      } else {
        settle(job, new SynthesisError('unavailable', `the local voice stopped (${reason})`));
      }
    }
    this.dispatch();
  }
}

/**
 * The text as the bridge can take it: one line (its requests are lines), without NUL and other control
 * characters (a NUL would end the text in C, and an empty text was never answered).
 */
export function speakableText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
