// Voice activity of a visitor's microphone: WebRTC's voice activity detector (libfvad, compiled to
// WebAssembly by @echogarden/fvad-wasm) classifies 20 ms frames; a turn starts after enough voiced
// frames in a short window and ends after a pause of `hangoverMs` (the listener may change it while the
// turn goes on: a sentence that is over needs a shorter pause than one that trails off). A short pause is
// reported with the audio so far, so the words can be transcribed before the turn is known to be over.
// While the PAL talks (barge-in), speech must be longer and louder to count, so that the PAL's own voice
// leaking into the microphone does not cut it off.
// libfvad takes 8, 16, 32 or 48 kHz; audio at any other rate is resampled to 16 kHz first.
import fvad from '@echogarden/fvad-wasm';
import { AUDIO_RATE_RANGE } from '../../../protocol/room.js';
import { joinSamples, resample } from '../../platform/audio/pcm.js';

/**
 * What changed after some samples: speech began; it paused (with the audio so far) or went on after a
 * pause; or a turn ended with its audio (pre-roll included) at the rate it was heard.
 */
export type VoiceChange =
  | { type: 'speech-start' }
  | { type: 'pause'; samples: Int16Array; sampleRate: number }
  | { type: 'resume' }
  /** `silenceMs`: how long the detector had heard silence when it ended the turn (the end-of-turn wait). */
  | { type: 'speech-end'; samples: Int16Array; sampleRate: number; silenceMs: number };

interface Fvad {
  _fvad_new(): number;
  _fvad_free(inst: number): void;
  _fvad_set_mode(inst: number, mode: number): number;
  _fvad_set_sample_rate(inst: number, rate: number): number;
  _fvad_process(inst: number, frame: number, length: number): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  HEAP16: Int16Array;
}

const FRAME_MS = 20;
/** Voiced frames needed among the last WINDOW to start a turn: 160 ms of speech in 240 ms. */
const START = { window: 12, voiced: 8 };
/** While the PAL talks: 200 ms of louder speech in 280 ms. */
const BARGE_IN = { window: 14, voiced: 10, minRms: 0.02 };
const START_RULE = { ...START, minRms: 0 };
/** A pause this long ends a turn, unless the listener asks for another length. */
export const HANGOVER_MS = 600;
/** A pause this long is reported (with the audio so far): long enough to pass the gaps between words. */
export const PAUSE_MS = 120;
/** The listener's hangover is kept within these (a turn never waits forever, nor ends within a word). */
const HANGOVER_RANGE = { min: PAUSE_MS, max: 3000 };
/** Audio kept from before the start, so the first syllable is not lost. */
const PRE_ROLL_MS = 300;
/** A turn longer than this is cut and handed on. */
const MAX_TURN_MS = 30_000;
const RATES = new Set([8000, 16000, 32000, 48000]);
/** Where audio at another rate is taken to. */
const FALLBACK_RATE = 16000;

let engine: Fvad | null = null;
const loading: Promise<Fvad> = (fvad as unknown as () => Promise<Fvad>)().then((m) => (engine = m));
loading.catch(() => undefined);

/** Resolves once the detector's WebAssembly is loaded (detectors made before then catch up). */
export function vadReady(): Promise<void> {
  return loading.then(() => undefined);
}

export class VoiceActivityDetector {
  bargeIn = false;
  #hangoverMs = HANGOVER_MS;
  private readonly frameSize: number;
  /** The rate libfvad sees: the input's, or FALLBACK_RATE when libfvad cannot take the input's. */
  private readonly rate: number;
  private inst = 0;
  private buffer = 0;
  private pending: Int16Array = new Int16Array(0);
  private readonly recent: Array<{ voiced: boolean; rms: number }> = [];
  private readonly preRoll: Int16Array[] = [];
  private turn: Int16Array[] | null = null;
  private silentMs = 0;
  private paused = false;
  private turnMs = 0;
  private closed = false;

  constructor(private readonly sampleRate: number) {
    if (!Number.isInteger(sampleRate) || sampleRate < AUDIO_RATE_RANGE.min || sampleRate > AUDIO_RATE_RANGE.max) {
      throw new RangeError(`voice activity detection needs audio between 8 and 96 kHz, not ${sampleRate} Hz`);
    }
    this.rate = RATES.has(sampleRate) ? sampleRate : FALLBACK_RATE;
    this.frameSize = (this.rate * FRAME_MS) / 1000;
  }

  /** Feeds samples; returns what changed. Before the detector has loaded, audio waits (up to a second). */
  push(samples: Int16Array): VoiceChange[] {
    if (this.closed) return [];
    this.pending = joinSamples(
      this.pending,
      this.rate === this.sampleRate ? samples : Int16Array.from(resample(samples, this.sampleRate, this.rate)),
    );
    const fvad = this.ready();
    if (!fvad) {
      if (this.pending.length > this.rate) this.pending = this.pending.slice(-this.rate);
      return [];
    }
    const changes: VoiceChange[] = [];
    let at = 0;
    for (; at + this.frameSize <= this.pending.length; at += this.frameSize) {
      const change = this.frame(fvad, this.pending.subarray(at, at + this.frameSize));
      if (change) changes.push(change);
    }
    this.pending = this.pending.slice(at);
    return changes;
  }

  /** The pause that ends the current turn (back to HANGOVER_MS when a turn starts). */
  get hangoverMs(): number {
    return this.#hangoverMs;
  }

  set hangoverMs(ms: number) {
    this.#hangoverMs = Number.isFinite(ms) ? Math.min(HANGOVER_RANGE.max, Math.max(HANGOVER_RANGE.min, ms)) : HANGOVER_MS;
  }

  /** How long the current turn has been silent (0 outside a turn or while speech goes on). */
  get silence(): number {
    return this.turn ? this.silentMs : 0;
  }

  /** Ends the current turn now if it is in a pause at least `hangoverMs` long (e.g. the hangover was just shortened). */
  endIfOver(): VoiceChange | null {
    return this.turn && this.paused && this.silentMs >= this.#hangoverMs ? this.endTurn() : null;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (engine && this.inst) {
      engine._fvad_free(this.inst);
      engine._free(this.buffer);
    }
  }

  private ready(): Fvad | null {
    if (!engine) return null;
    if (!this.inst) {
      this.inst = engine._fvad_new();
      engine._fvad_set_mode(this.inst, 3); // the most aggressive: least likely to call noise speech
      engine._fvad_set_sample_rate(this.inst, this.rate);
      this.buffer = engine._malloc(this.frameSize * 2);
    }
    return engine;
  }

  private frame(fvad: Fvad, frame: Int16Array): VoiceChange | null {
    // HEAP16 is replaced when the module's memory grows: read it each time.
    fvad.HEAP16.set(frame, this.buffer >> 1);
    const voiced = fvad._fvad_process(this.inst, this.buffer, frame.length) === 1;
    let energy = 0;
    for (let i = 0; i < frame.length; i++) energy += frame[i]! * frame[i]!;
    const rms = Math.sqrt(energy / frame.length) / 32768;
    if (this.turn) {
      this.turn.push(frame); // a view, not a copy: `pending` is made anew on every push and never written after
      this.turnMs += FRAME_MS;
      this.silentMs = voiced ? 0 : this.silentMs + FRAME_MS;
      if (this.silentMs >= this.#hangoverMs || this.turnMs >= MAX_TURN_MS) return this.endTurn();
      if (voiced && this.paused) {
        this.paused = false;
        return { type: 'resume' };
      }
      if (this.silentMs >= PAUSE_MS && !this.paused) {
        this.paused = true;
        return { type: 'pause', samples: this.spoken(this.turn), sampleRate: this.rate };
      }
      return null;
    }
    this.preRoll.push(frame);
    if (this.preRoll.length > PRE_ROLL_MS / FRAME_MS) this.preRoll.shift();
    const rule = this.bargeIn ? BARGE_IN : START_RULE;
    this.recent.push({ voiced, rms });
    if (this.recent.length > rule.window) this.recent.splice(0, this.recent.length - rule.window);
    const count = this.recent.filter((f) => f.voiced && f.rms >= rule.minRms).length;
    if (count < rule.voiced) return null;
    this.turn = this.preRoll.splice(0);
    this.turnMs = this.turn.length * FRAME_MS;
    this.silentMs = 0;
    this.paused = false;
    this.#hangoverMs = HANGOVER_MS;
    this.recent.length = 0;
    return { type: 'speech-start' };
  }

  private endTurn(): VoiceChange {
    const frames = this.turn ?? [];
    this.turn = null;
    this.paused = false;
    this.recent.length = 0;
    return { type: 'speech-end', samples: this.spoken(frames), sampleRate: this.rate, silenceMs: this.silentMs };
  }

  /**
   * The turn's audio up to where the pause was reported, the same for the pause and the end: the rest of
   * a long pause is not part of what was said, but its first PAUSE_MS are kept, since the detector calls
   * the quiet end of a word (a final "s") silence.
   */
  private spoken(frames: Int16Array[]): Int16Array {
    const keep = Math.max(1, frames.length - Math.floor(this.silentMs / FRAME_MS) + PAUSE_MS / FRAME_MS);
    return joinSamples(...frames.slice(0, keep));
  }
}
