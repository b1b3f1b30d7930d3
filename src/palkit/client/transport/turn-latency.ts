// What the visitor hears of each PAL reply, measured in the page (issue 26): from the end of their turn
// (the message sent, or the service's end-of-turn mark arriving) to the PAL's first audible sample at
// the audio output and its first mouth movement drawn, plus the lip-sync offset over the reply. Loaded
// with the call, never with the first paint. A figure that cannot be taken here is left out, never 0.
import type { TurnLatencyFrame } from '../../../protocol/room.js';

export interface TurnLatencyReport {
  /** Ms from the end of the turn to the first audible PAL sample at the output. */
  heardMs?: number;
  /** Ms from the end of the turn to the first mouth shape drawn for the reply. */
  mouthMs?: number;
  /** p95 over the reply of |mouth shape drawn − its audio at the output|, ms. */
  lipSyncMs?: number;
  /** When the visitor's turn ended, ms since the Unix epoch. */
  turnEndedAt: number;
  input: 'text' | 'speech';
  inferenceId: string;
}

interface Turn {
  endedAt: number;
  input: 'text' | 'speech';
  inferenceId?: string;
  heardAt?: number;
  mouthAt?: number;
  offsets: number[];
}

/** Offsets kept per reply (a reply of a minute has ~1,500 slices of 40 ms). */
const MAX_OFFSETS = 4096;

export class TurnLatencyMeter {
  #turn: Turn | null = null;
  #finishing: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly report: (report: TurnLatencyReport) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The visitor's turn ended `agoMs` ago (a spoken turn ends before the service's mark): what the PAL says next is measured from there. */
  turnEnded(input: 'text' | 'speech', agoMs = 0): void {
    this.#finish();
    this.#turn = { endedAt: this.now() - agoMs, input, offsets: [] };
  }

  /** The PAL began its reply (the first reply after the turn is the one measured). */
  replyStarted(inferenceId: string): void {
    if (this.#turn && !this.#turn.inferenceId) this.#turn.inferenceId = inferenceId;
  }

  /** The reply ended; its last audio is still `remainingMs` from the output. */
  replyEnded(inferenceId: string, remainingMs: number): void {
    if (this.#turn?.inferenceId !== inferenceId) return;
    clearTimeout(this.#finishing);
    this.#finishing = setTimeout(() => this.#finish(), Math.max(0, remainingMs) + 120);
  }

  /**
   * An audible PAL sample reaches the output at `at` (page clock). Counted once the reply has started: sound
   * before that is what the PAL was still saying (a greeting that began late under load was taken for a
   * reply heard 2 ms after the question).
   */
  audible(at: number): void {
    const turn = this.#turn;
    if (turn?.inferenceId && turn.heardAt === undefined && at >= turn.endedAt) turn.heardAt = at;
  }

  /** A mouth shape was drawn at `at` for audio reaching the output at `heardAt` (counted as audible() is). */
  mouth(at: number, heardAt: number): void {
    const turn = this.#turn;
    if (!turn?.inferenceId || heardAt < turn.endedAt) return;
    turn.mouthAt ??= at;
    if (turn.offsets.length < MAX_OFFSETS) turn.offsets.push(Math.abs(at - heardAt));
  }

  close(): void {
    clearTimeout(this.#finishing);
    this.#turn = null;
  }

  #finish(): void {
    clearTimeout(this.#finishing);
    const turn = this.#turn;
    this.#turn = null;
    // No reply, or one nothing of was heard or seen here (text mode, no audio output): nothing to report.
    if (!turn?.inferenceId || (turn.heardAt === undefined && turn.mouthAt === undefined)) return;
    const ms = (at: number | undefined) => (at === undefined ? undefined : Math.round(at - turn.endedAt));
    const heardMs = ms(turn.heardAt);
    const mouthMs = ms(turn.mouthAt);
    const lipSyncMs = p95(turn.offsets);
    this.report({
      ...(heardMs !== undefined ? { heardMs } : {}),
      ...(mouthMs !== undefined ? { mouthMs } : {}),
      ...(lipSyncMs !== undefined ? { lipSyncMs } : {}),
      turnEndedAt: Math.round(performance.timeOrigin + turn.endedAt),
      input: turn.input,
      inferenceId: turn.inferenceId,
    });
  }
}

function p95(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)]!);
}

/**
 * The service's end-of-turn mark ends a spoken turn; it is sent the moment the service decides the turn
 * ended, so its arrival is that moment on this page's clock (late by the one-way socket delay, a few ms),
 * and it says how long the visitor had been silent by then: the speech ended that much earlier. The
 * PAL's speaking events start and end the reply measured.
 */
export function measureTurn(meter: TurnLatencyMeter, eventType: unknown, raw: unknown, remainingMs: () => number): void {
  const inferenceId = eventType === undefined ? undefined : (raw as { inference_id?: unknown }).inference_id;
  if (eventType === 'conversation.user.stopped_speaking') meter.turnEnded('speech', silenceOf(raw));
  else if (typeof inferenceId !== 'string') return;
  else if (eventType === 'conversation.replica.started_speaking') meter.replyStarted(inferenceId);
  else if (eventType === 'conversation.replica.stopped_speaking') meter.replyEnded(inferenceId, remainingMs());
}

/** The report as the room's `turn-latency` frame; the room takes waits up to a minute (a longer one is no reply to the turn). */
export function turnLatencyFrame(report: TurnLatencyReport): TurnLatencyFrame {
  return {
    type: 'turn-latency',
    inference_id: report.inferenceId,
    input: report.input,
    turn_ended_at: report.turnEndedAt,
    ...(report.heardMs !== undefined && report.heardMs <= 60_000 ? { heard_ms: report.heardMs } : {}),
    ...(report.mouthMs !== undefined && report.mouthMs <= 60_000 ? { mouth_ms: report.mouthMs } : {}),
    ...(report.lipSyncMs !== undefined && report.lipSyncMs <= 10_000 ? { lip_sync_ms: report.lipSyncMs } : {}),
  };
}

/** The mark's `silence_ms` when it is a plausible pause (0–10 s), else 0. */
function silenceOf(raw: unknown): number {
  const silence = (raw as { properties?: { silence_ms?: unknown } }).properties?.silence_ms;
  return typeof silence === 'number' && silence >= 0 && silence <= 10_000 ? silence : 0;
}
