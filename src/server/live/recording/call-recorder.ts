// The call as one 16 kHz mono track: the PAL's voice and the visitors' microphones mixed on the call's
// clock (each source placed where its audio arrived, or right after its previous chunk when it arrives
// in a burst), appended to a raw PCM file every second so that a crash keeps what was recorded. A source
// never runs more than AHEAD_MS ahead of the call's clock (what is sent faster is dropped), and nothing
// is kept past the call's maximum duration: the recording is never longer than the call. The call's clock
// stands still while the recorder is paused (no visitor in the room): an empty room is not recorded.
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { resample } from '../../platform/audio/pcm.js';
import { systemClock, type Clock, type ClockTimer } from '../../platform/time.js';

/** The recorder's time: the call's clock (where samples are placed) and the flush's timer. */
export type RecorderClock = Pick<Clock, 'now' | 'setInterval' | 'clearTimeout'>;

export const RECORDING_RATE = 16_000;
const FLUSH_MS = 1_000;
/** How far ahead of the call's clock a source may be placed (the PAL's voice is sent a little ahead of playback). */
export const AHEAD_MS = 1_000;

export class CallRecorder {
  /** Mixed samples not yet written, starting at sample index `pendingStart`. */
  private pending = new Float32Array(RECORDING_RATE * 4);
  private pendingStart = 0;
  /** One past the last sample any source wrote. */
  private end = 0;
  private readonly cursors = new Map<string, number>();
  private readonly timer: ClockTimer;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;
  /** Milliseconds the recorder spent paused, which the call's clock leaves out. */
  private pausedMs = 0;
  /** When the current pause began (the recorder's clock), or null while recording. */
  private pausedAt: number | null = null;

  private constructor(
    private readonly file: FileHandle,
    private readonly startedAt: number,
    private readonly clock: RecorderClock,
    /** No sample at or past this index is kept. */
    private readonly limit: number,
  ) {
    // Written as the call goes, on the call's clock (a test moves it).
    this.timer = clock.setInterval(() => this.flushUpTo(Math.min(this.nowIndex(), this.limit)), FLUSH_MS);
    this.timer.unref();
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  /**
   * Starts (or, after a restart, continues) the PCM file at `path`, for a call of at most `maxSeconds`,
   * on `clock` (the service's: samples are placed by when they are heard, and written every second).
   */
  static async start(path: string, maxSeconds: number, clock: RecorderClock = systemClock): Promise<CallRecorder> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // The visitor's voice: readable by the service's user only.
    const file = await open(path, 'a', 0o600);
    const { size } = await file.stat();
    // Continuing a recording: its samples so far come first.
    const startedAt = clock.now().getTime() - (size / 2 / RECORDING_RATE) * 1000;
    const recorder = new CallRecorder(file, startedAt, clock, Math.floor(maxSeconds * RECORDING_RATE));
    recorder.pendingStart = recorder.end = Math.floor(size / 2);
    return recorder;
  }

  /** Nobody to record (the room has no visitor): the call's clock stops and what is added is not kept. */
  pause(): void {
    if (this.pausedAt === null && !this.closed) this.pausedAt = this.now();
  }

  /** A visitor is back: the call's clock goes on from where it stopped. */
  resume(): void {
    if (this.pausedAt === null) return;
    this.pausedMs += Math.max(0, this.now() - this.pausedAt);
    this.pausedAt = null;
  }

  get paused(): boolean {
    return this.pausedAt !== null;
  }

  /** Adds `samples` (16-bit PCM at `sampleRate`) from one source. */
  add(source: string, samples: Int16Array, sampleRate: number): void {
    if (this.closed || this.pausedAt !== null || samples.length === 0) return;
    let resampled = resample(samples, sampleRate, RECORDING_RATE);
    const now = this.nowIndex();
    const at = Math.max(this.cursors.get(source) ?? 0, now - resampled.length, this.pendingStart);
    // Audio sent faster than the call runs, or past its end, is not kept.
    const room = Math.min(now + (AHEAD_MS / 1000) * RECORDING_RATE, this.limit) - at;
    if (room <= 0) return;
    if (resampled.length > room) resampled = resampled.subarray(0, room);
    this.cursors.set(source, at + resampled.length);
    this.ensure(at + resampled.length);
    const offset = at - this.pendingStart;
    for (let i = 0; i < resampled.length; i++) this.pending[offset + i]! += resampled[i]!;
    this.end = Math.max(this.end, at + resampled.length);
  }

  /** Seconds recorded so far (the call's clock). */
  get seconds(): number {
    return this.total() / RECORDING_RATE;
  }

  /**
   * Writes everything up to `at` (when the call ended; by default now), and any audio queued past it, and
   * closes the file; returns the samples written. A room that takes a moment to close does not lengthen its call.
   */
  async stop(at: number = this.now()): Promise<number> {
    if (this.closed) return 0;
    this.closed = true;
    this.clock.clearTimeout(this.timer);
    const total = Math.min(Math.max(this.end, this.indexAt(at)), this.limit);
    this.flushUpTo(total);
    await this.writing;
    await this.file.close();
    return total;
  }

  private total(): number {
    return Math.min(Math.max(this.end, this.nowIndex()), this.limit);
  }

  private nowIndex(): number {
    return this.indexAt(this.now());
  }

  /** The sample index of a time on the recorder's clock: the time since the start, less the pauses. */
  private indexAt(time: number): number {
    const callTime = (this.pausedAt === null ? time : Math.min(time, this.pausedAt)) - this.pausedMs;
    return Math.max(0, Math.floor(((callTime - this.startedAt) / 1000) * RECORDING_RATE));
  }

  private ensure(upTo: number): void {
    const needed = upTo - this.pendingStart;
    if (needed <= this.pending.length) return;
    const grown = new Float32Array(Math.max(needed, this.pending.length * 2));
    grown.set(this.pending);
    this.pending = grown;
  }

  private flushUpTo(index: number): void {
    const count = index - this.pendingStart;
    if (count <= 0) return;
    this.ensure(index);
    const bytes = Buffer.alloc(count * 2);
    for (let i = 0; i < count; i++) bytes.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(this.pending[i]!))), i * 2);
    this.pending.copyWithin(0, count);
    this.pending.fill(0, this.pending.length - count);
    this.pendingStart = index;
    const file = this.file;
    this.writing = this.writing.then(() => file.write(bytes).then(() => file.datasync().catch(() => undefined))).catch(() => undefined);
  }
}
