// What one participant may send into a room, checked where its frames are read (on the instance its
// socket reached, and again on the room's holder): microphone audio at real-time pace with a short burst,
// and JSON frames (chat, app-messages, echo text) by count and by size. Every frame costs something: a
// binary frame at least `minAudioSeconds` of audio, one that is not microphone audio also a frame, and it
// is dropped as malformed. What goes past the budget is dropped before it is decoded; a connection that
// keeps sending past it (malformed frames count) is closed.
import type { RawData } from 'ws';
import { AUDIO_HEADER_BYTES, AUDIO_RATE_RANGE, AudioFrameKind } from '../../../protocol/room.js';
import type { ServiceMetrics } from '../../platform/metrics.js';

/** A token bucket: `perSecond` refills, up to `burst`. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(amount: number, now: number): boolean {
    // A clock that steps back (wall time) refills nothing.
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = Math.max(this.at, now);
    if (amount > this.tokens) return false;
    this.tokens -= amount;
    return true;
  }
}

export const PARTICIPANT_BUDGET = {
  /** Seconds of microphone audio per second of the call, and how far ahead a burst may run. */
  audioSeconds: { perSecond: 1, burst: 1 },
  /** JSON frames (chat turns, app-messages) per second. */
  frames: { perSecond: 10, burst: 30 },
  /** Characters of JSON frames per second (echo text, chat, context updates). */
  textChars: { perSecond: 8_000, burst: 64_000 },
  /** Dropped frames within DROP_WINDOW_MS after which the connection is closed. */
  dropsToClose: 1_000,
  /** The least a binary frame costs in audio, whatever it holds (a browser's microphone frame is 20 ms). */
  minAudioSeconds: 0.02,
} as const;
/** Drops are counted, and each kind of drop told to the sender once, per window of this length. */
export const DROP_WINDOW_MS = 10_000;

/** malformed: a binary frame that is not microphone audio (too short, odd, reserved bytes set, no samples). */
export type BudgetKind = 'audio' | 'frame' | 'text' | 'malformed';
/**
 * Handle it (`ok`), or drop it: `first` for the first drop of its kind in a window (worth telling the
 * sender), `close` when the connection kept flooding and is to be closed.
 */
export type BudgetVerdict = { ok: true } | { ok: false; kind: BudgetKind; first: boolean; close: boolean };

export class ParticipantBudget {
  private readonly audio: Bucket;
  private readonly frames: Bucket;
  private readonly text: Bucket;
  private drops = 0;
  private windowStart: number;
  /** The kinds of drop the sender was told of in this window. */
  private readonly told = new Set<BudgetKind>();

  constructor(private readonly now: () => number = () => performance.now()) {
    const t = now();
    this.audio = new Bucket(PARTICIPANT_BUDGET.audioSeconds.perSecond, PARTICIPANT_BUDGET.audioSeconds.burst, t);
    this.frames = new Bucket(PARTICIPANT_BUDGET.frames.perSecond, PARTICIPANT_BUDGET.frames.burst, t);
    this.text = new Bucket(PARTICIPANT_BUDGET.textChars.perSecond, PARTICIPANT_BUDGET.textChars.burst, t);
    this.windowStart = t;
  }

  /** Whether this frame fits the participant's budget (binary: an audio frame, judged by its header). */
  admit(data: RawData | string, isBinary: boolean): BudgetVerdict {
    const now = this.now();
    const kind = isBinary && typeof data !== 'string' ? this.chargeAudio(asBytes(data), now) : this.chargeText(byteLength(data), now);
    if (!kind) return { ok: true };
    if (now - this.windowStart > DROP_WINDOW_MS) {
      this.windowStart = now;
      this.drops = 0;
      this.told.clear();
    }
    this.drops++;
    const first = !this.told.has(kind);
    this.told.add(kind);
    return { ok: false, kind, first, close: this.drops >= PARTICIPANT_BUDGET.dropsToClose };
  }

  /**
   * What was over budget (or malformed), or null. Audio costs its length, at least `minAudioSeconds`; a
   * frame that is not microphone audio costs that and a frame, and is always dropped.
   */
  private chargeAudio(bytes: Uint8Array, now: number): BudgetKind | null {
    const rate = microphoneRate(bytes);
    const seconds = rate ? (bytes.byteLength - AUDIO_HEADER_BYTES) / 2 / rate : 0;
    const paid = this.audio.take(Math.max(seconds, PARTICIPANT_BUDGET.minAudioSeconds), now);
    if (rate) return paid ? null : 'audio';
    this.frames.take(1, now);
    return 'malformed';
  }

  private chargeText(chars: number, now: number): BudgetKind | null {
    if (!this.frames.take(1, now)) return 'frame';
    return this.text.take(chars, now) ? null : 'text';
  }
}

/** The sample rate of a microphone audio frame the room can hear, or 0 for anything else. */
function microphoneRate(bytes: Uint8Array): number {
  const samplesBytes = bytes.byteLength - AUDIO_HEADER_BYTES;
  if (samplesBytes <= 0 || samplesBytes % 2 !== 0) return 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(0) !== AudioFrameKind.microphone || view.getUint8(1) !== 0 || view.getUint16(2, true) !== 0) return 0;
  const rate = view.getUint32(4, true);
  return rate >= AUDIO_RATE_RANGE.min && rate <= AUDIO_RATE_RANGE.max ? rate : 0;
}

function asBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

function byteLength(data: RawData | string): number {
  if (Array.isArray(data)) return data.reduce((n, part) => n + part.byteLength, 0);
  return typeof data === 'string' ? data.length : data.byteLength;
}

/** Counts what a verdict refused in /metrics. */
export function countRefused(
  metrics: Pick<ServiceMetrics, 'roomInputDropped' | 'roomSocketsClosedForFlooding'>,
  verdict: BudgetVerdict,
): void {
  if (verdict.ok) return;
  metrics.roomInputDropped.inc({ kind: verdict.kind });
  if (verdict.close) metrics.roomSocketsClosedForFlooding.inc();
}
