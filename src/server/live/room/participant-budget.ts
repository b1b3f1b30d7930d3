// What one participant may send into a room, checked where its frames are read (on the instance its
// socket reached, and again on the room's holder): microphone audio at real-time pace with a short burst,
// and JSON frames (chat, app-messages, echo text) by count and by size. What goes past the budget is
// dropped before it is decoded; a connection that keeps sending past it is closed.
import type { RawData } from 'ws';
import { AUDIO_HEADER_BYTES, AUDIO_RATE_RANGE } from '../../../protocol/room.js';
import type { ServiceMetrics } from '../../app/ops/metrics.js';

/** A token bucket: `perSecond` refills, up to `burst`. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(private readonly perSecond: number, private readonly burst: number, now: number) {
    this.tokens = burst;
    this.at = now;
  }

  take(amount: number, now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
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
} as const;
const DROP_WINDOW_MS = 10_000;

export type BudgetKind = 'audio' | 'frame' | 'text';
/**
 * Handle it (`ok`), or drop it: `first` for the first drop in a while (worth telling the sender), `close`
 * when the connection kept flooding and is to be closed.
 */
export type BudgetVerdict = { ok: true } | { ok: false; kind: BudgetKind; first: boolean; close: boolean };

export class ParticipantBudget {
  private readonly audio: Bucket;
  private readonly frames: Bucket;
  private readonly text: Bucket;
  private drops = 0;
  private windowStart: number;

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
    const kind = isBinary && Buffer.isBuffer(data) ? this.chargeAudio(data, now) : this.chargeText(byteLength(data), now);
    if (!kind) return { ok: true };
    if (now - this.windowStart > DROP_WINDOW_MS) {
      this.windowStart = now;
      this.drops = 0;
    }
    this.drops++;
    return { ok: false, kind, first: this.drops === 1, close: this.drops >= PARTICIPANT_BUDGET.dropsToClose };
  }

  /** What was over budget, or null. A binary frame with no valid rate costs a frame (the decoder refuses it). */
  private chargeAudio(bytes: Uint8Array, now: number): BudgetKind | null {
    const rate = bytes.byteLength >= AUDIO_HEADER_BYTES ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true) : 0;
    if (rate < AUDIO_RATE_RANGE.min || rate > AUDIO_RATE_RANGE.max) return this.frames.take(1, now) ? null : 'frame';
    const seconds = Math.floor((bytes.byteLength - AUDIO_HEADER_BYTES) / 2) / rate;
    return this.audio.take(seconds, now) ? null : 'audio';
  }

  private chargeText(chars: number, now: number): BudgetKind | null {
    if (!this.frames.take(1, now)) return 'frame';
    return this.text.take(chars, now) ? null : 'text';
  }
}

function byteLength(data: RawData | string): number {
  if (Array.isArray(data)) return data.reduce((n, part) => n + part.byteLength, 0);
  return typeof data === 'string' ? data.length : data.byteLength;
}

/** Counts what a verdict refused in /metrics. */
export function countRefused(metrics: Pick<ServiceMetrics, 'roomInputDropped' | 'roomSocketsClosedForFlooding'>, verdict: BudgetVerdict): void {
  if (verdict.ok) return;
  metrics.roomInputDropped.inc({ kind: verdict.kind });
  if (verdict.close) metrics.roomSocketsClosedForFlooding.inc();
}
