// The local voice: eSpeak NG. Small bridge programs (espeak/palkit-espeak.c, compiled once against
// libespeak-ng into a private folder, see espeak/bridge-binary.ts) run beside the service and return each
// text's samples with the synthesiser's own word and phoneme timing. A pool of them, sized to the cores,
// serves the rooms round-robin (one lane per room, see fair-queue.ts): a sentence waits only behind its
// own room's sentences, and one cancelled before it reaches a bridge costs nothing. A bridge that dies
// (any exit, signals included) is replaced, and the sentence it was saying is said again once by the new
// one, resuming where the dead one stopped. Where no bridge can be built, or bridges keep dying, the
// espeak-ng command line is used instead, with word and mouth timing estimated from the text.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { Logger } from '../../app/log.js';
import { Bridge, FRAME, type BridgeRequest } from './espeak/bridge.js';
import { BridgeBinary } from './espeak/bridge-binary.js';
import { FairQueue } from './fair-queue.js';
import { estimatedVisemes, estimatedWords, visemeOfPhoneme } from './visemes-of.js';
import { SynthesisError, type SynthesisEvent, type SynthesisStream, type Synthesizer, type VoiceChoice } from './synthesizer.js';

const DEFAULT_RATE = 175;
const DEFAULT_LANE = '';
/** Sentences one room may have waiting; a room speaks one utterance at a time, two sentences ahead. */
const PER_LANE = 8;
/** Bridges at most, whatever the cores: each is a process of its own. */
const MAX_BRIDGES = 4;
/** A sentence is tried on at most this many bridges. */
const ATTEMPTS = 2;
/**
 * Bridges that die this many times in a row without finishing a sentence cannot speak here (a broken
 * library, say): the command line speaks for a while, then bridges are tried again. Deaths between
 * finished sentences (a killed process) are replaced, not given up on.
 */
const CRASH_LIMIT = 3;
const FALLBACK_MS = 60_000;

export interface EspeakOptions {
  /** PALKIT_DATA ('memory' for a service without files): the bridge is built under it. */
  dataDir?: string;
  /** Bridges in the pool (default: the cores, at most MAX_BRIDGES). */
  bridges?: number;
}

type Counts = Record<'audio' | 'word' | 'phoneme', number>;

/** One sentence on its way through the pool. */
interface Job {
  lane: string;
  id: number;
  text: string;
  chars: string[];
  voice: string;
  rate: number;
  signal: AbortSignal;
  attempts: number;
  /**
   * What the consumer has been given, and what a retry therefore skips: the synthesiser says a text the
   * same way again (to within ~0.1% of its samples), so the new bridge goes on where the dead one stopped.
   */
  delivered: Counts;
  skip: Counts;
  settled: boolean;
  /** The bridge saying it now, so that an interrupt stops it there too. */
  bridge: Bridge | null;
  push(event: SynthesisEvent | null, error?: Error): void;
}

export class EspeakSynthesizer implements Synthesizer {
  readonly name = 'espeak-ng';
  private readonly binary: BridgeBinary;
  private readonly size: number;
  private readonly queue = new FairQueue<Job>(PER_LANE);
  private readonly idle: Bridge[] = [];
  private readonly bridges = new Set<Bridge>();
  /** Sentences being said now: on a bridge or by the command line. */
  private running = 0;
  private sampleRate = 22050;
  private nextId = 1;
  /** Lanes with a sentence being said: one at a time per room, so one room never holds every bridge. */
  private readonly busyLanes = new Set<string>();
  private readonly active = new Set<Job>();
  private crashesInARow = 0;
  /** Sentences handed to a bridge, and samples bridges returned (heard or not): what the pool really did. */
  readonly work = { sentences: 0, samples: 0 };
  private fallbackUntil = 0;
  private closed = false;

  constructor(private readonly log: Logger, options: EspeakOptions = {}) {
    this.binary = new BridgeBinary(options.dataDir ?? 'memory', log);
    this.size = Math.max(1, Math.min(MAX_BRIDGES, options.bridges ?? availableParallelism()));
  }

  synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream> {
    return this.enqueue(DEFAULT_LANE, text, voice, signal);
  }

  /** This synthesiser as one room sees it: its sentences queue in their own lane. */
  lane(key: string): Synthesizer {
    return { name: this.name, synthesize: (text, voice, signal) => this.enqueue(`room:${key}`, text, voice, signal) };
  }

  /** Process ids of the running bridges (for operators and tests). */
  get bridgePids(): number[] {
    return [...this.bridges].flatMap((b) => (b.pid ? [b.pid] : []));
  }

  close(): void {
    this.closed = true;
    for (const bridge of this.bridges) bridge.stop();
    this.bridges.clear();
    this.idle.length = 0;
    for (const job of [...this.queue.drain(), ...this.active]) settle(job, new SynthesisError('unavailable', 'the local voice stopped'));
  }

  private async enqueue(lane: string, text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream> {
    const clean = speakableText(text);
    const events: Array<SynthesisEvent | null> = [];
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    const job: Job = {
      lane, id: this.nextId++, text: clean, chars: [...clean], voice: espeakVoice(voice), rate: Math.round(voice.rate ?? DEFAULT_RATE), signal,
      attempts: 0, delivered: { audio: 0, word: 0, phoneme: 0 }, skip: { audio: 0, word: 0, phoneme: 0 }, settled: false, bridge: null,
      push: (event, error) => {
        if (error) failure = error;
        else events.push(event);
        wake?.();
      },
    };
    if (this.nextId > 0xfffffff0) this.nextId = 1;
    if (!clean) job.push(null);
    else if (this.closed) throw new SynthesisError('unavailable', 'the local voice stopped');
    else if (!this.queue.push(lane, job)) throw new SynthesisError('unavailable', 'the local voice has too many sentences waiting in this room');
    const onAbort = () => {
      this.queue.remove(lane, job);
      job.settled = true;
      job.bridge?.cancel(job.id);
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

  /** Starts waiting sentences while there is room in the pool, taking the rooms in turn. */
  private dispatch(): void {
    while (!this.closed && this.running < this.size) {
      const job = this.queue.shift((lane) => !this.busyLanes.has(lane));
      if (!job) return;
      if (job.settled || job.signal.aborted) continue;
      this.running++;
      this.busyLanes.add(job.lane);
      this.active.add(job);
      job.attempts++;
      const bridge = Date.now() >= this.fallbackUntil ? this.freeBridge() : null;
      job.bridge = bridge;
      if (bridge) {
        this.work.sentences++;
        bridge.run(this.request(job));
      }
      else void this.viaCommandLine(job).finally(() => this.finished(job));
    }
  }

  private finished(job: Job): void {
    job.bridge = null;
    this.running--;
    this.busyLanes.delete(job.lane);
    this.active.delete(job);
    this.dispatch();
  }

  private freeBridge(): Bridge | null {
    const idle = this.idle.pop();
    if (idle) return idle;
    const binary = this.binary.get();
    if (!binary) return null;
    const bridge = new Bridge(binary, this.log, (b, request, reason) => this.died(b, request, reason), (b, request) => {
      if (b.sampleRate) this.sampleRate = b.sampleRate;
      this.crashesInARow = 0;
      this.idle.push(b);
      this.finished((request as BridgeRequest & { job: Job }).job);
    });
    this.bridges.add(bridge);
    return bridge;
  }

  /** A bridge ended without being asked to: replaced on demand; its sentence goes again once, first in its room's lane. */
  private died(bridge: Bridge, request: BridgeRequest | null, reason: string): void {
    this.bridges.delete(bridge);
    const at = this.idle.indexOf(bridge);
    if (at >= 0) this.idle.splice(at, 1);
    if (++this.crashesInARow >= CRASH_LIMIT && !this.closed) {
      this.crashesInARow = 0;
      this.fallbackUntil = Date.now() + FALLBACK_MS;
      this.log.error('espeak bridges keep dying; the espeak-ng command line speaks for a minute', { reason });
    } else {
      this.log.error('the espeak bridge stopped; another takes over', { reason, pid: bridge.pid });
    }
    // Its replacement starts loading its voice now, so a retried sentence does not wait for that too.
    if (!this.closed && Date.now() >= this.fallbackUntil && this.bridges.size < this.size) {
      const spare = this.freeBridge();
      if (spare) this.idle.push(spare);
    }
    const job = request ? (request as BridgeRequest & { job: Job }).job : null;
    if (job) {
      job.bridge = null;
      this.running--;
      this.busyLanes.delete(job.lane);
      this.active.delete(job);
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

  private request(job: Job): BridgeRequest & { job: Job } {
    const seen: Counts = { audio: 0, word: 0, phoneme: 0 };
    /** Passes an event on unless a previous attempt already delivered it. */
    const deliver = (kind: keyof Counts, amount: number, event: () => SynthesisEvent) => {
      const from = seen[kind];
      seen[kind] += amount;
      if (job.settled || seen[kind] <= job.skip[kind]) return;
      job.delivered[kind] = seen[kind];
      if (kind !== 'audio' || from >= job.skip.audio) return job.push(event());
      // Part of this chunk was heard before the old bridge died: only the rest is new.
      const samples = (event() as { samples: Int16Array }).samples.subarray(job.skip.audio - from);
      job.push({ type: 'audio', samples });
    };
    return {
      job, id: job.id, voice: job.voice, rate: job.rate, text: job.text,
      onFrame: (type, payload) => {
        if (type === FRAME.audio) {
          this.work.samples += payload.length >> 1;
          deliver('audio', payload.length >> 1, () => ({ type: 'audio', samples: int16(payload) }));
        } else if (type === FRAME.word && payload.length >= 12) {
          const atMs = payload.readUInt32LE(0);
          const position = payload.readUInt32LE(4) - 1;
          const text = job.chars.slice(position, position + payload.readUInt32LE(8)).join('');
          if (text.trim()) deliver('word', 1, () => ({ type: 'word', atMs, text }));
        } else if (type === FRAME.phoneme && payload.length >= 12) {
          const mnemonic = payload.subarray(4, 12).toString('utf8').replace(/\0.*$/s, '');
          deliver('phoneme', 1, () => ({ type: 'viseme', atMs: payload.readUInt32LE(0), viseme: visemeOfPhoneme(mnemonic) }));
        } else if (type === FRAME.end) {
          settle(job);
        } else if (type === FRAME.error) {
          const message = payload.toString('utf8');
          settle(job, new SynthesisError(message === 'unknown voice' ? 'unsupported_language' : 'unavailable', `espeak-ng: ${message}`));
        }
      },
    };
  }

  /** Without a bridge: the whole text at once from the command line, timing estimated. */
  private async viaCommandLine(job: Job): Promise<void> {
    try {
      const wav = await new Promise<Buffer>((resolve, reject) => {
        const child = spawn('espeak-ng', ['--stdout', '-v', job.voice, '-s', String(job.rate), '--', job.text], { signal: job.signal });
        const parts: Buffer[] = [];
        child.stdout.on('data', (d: Buffer) => parts.push(d));
        child.stdin.on('error', () => undefined);
        child.stdout.on('error', () => undefined);
        child.on('error', (error) => reject(new SynthesisError('unavailable', `espeak-ng could not run: ${error.message}`)));
        child.on('close', (code, signal) => (code === 0 ? resolve(Buffer.concat(parts)) : reject(new SynthesisError('unavailable', `espeak-ng ended with ${signal ?? code}`))));
      });
      const rateHz = wav.length >= 28 ? wav.readUInt32LE(24) : 22050;
      const samples = int16(wav.subarray(44));
      const durationMs = (samples.length / rateHz) * 1000;
      // The stream reports the bridge's rate; the command line's voices use the same one.
      if (rateHz !== this.sampleRate) throw new SynthesisError('unavailable', `espeak-ng spoke at ${rateHz} Hz`);
      for (const word of estimatedWords(job.text, durationMs)) job.push({ type: 'word', ...word });
      for (const mark of estimatedVisemes(job.text, durationMs)) job.push({ type: 'viseme', ...mark });
      job.push({ type: 'audio', samples });
      settle(job);
    } catch (error) {
      settle(job, error instanceof Error ? error : new SynthesisError('unavailable', String(error)));
    }
  }
}

function settle(job: Job, error?: Error): void {
  if (job.settled) return;
  job.settled = true;
  job.push(null, error);
}

function int16(bytes: Buffer): Int16Array {
  const samples = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

/**
 * The text as the bridge can take it: one line (its requests are lines), without NUL and other control
 * characters (a NUL would end the text in C, and an empty text was never answered).
 */
export function speakableText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

// Where eSpeak's voice name is not the language's primary tag: Norwegian is Bokmål, Chinese is Mandarin.
const ESPEAK_NAMES: Record<string, string> = { en: 'en-us', no: 'nb', zh: 'cmn' };

/** eSpeak's voice for a language: its names are mostly the language codes (en, de, fr, es, it, pt, nl, ja…). */
function espeakVoice(voice: VoiceChoice): string {
  const language = voice.language.toLowerCase().split(/[-_]/)[0] ?? 'en';
  if (!/^[a-z]{2,3}$/.test(language)) return 'en-us';
  return ESPEAK_NAMES[language] ?? language;
}
