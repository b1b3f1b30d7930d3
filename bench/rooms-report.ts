// What a round of the rooms bench found, as it prints it: one row per N, then where the heard latency went.
import type { TurnStages } from './room-visitor.js';

export interface Round {
  n: number;
  heardMs: number[];
  stages: TurnStages[];
  lateSlices: number;
  palSlices: number;
  unanswered: number;
  failedVisitors: number;
  /** Instance (and its helper processes) CPU over the round, in cores. */
  cpuCores: number;
  throttledShare: number;
  rssIdleMb: number;
  rssPeakMb: number;
  visitorLagP99Ms: number;
  /** CPU of the visitors' own process over the round, in cores. */
  visitorCpuCores: number;
  /** The instance's event loop delay over the calls (its /metrics, reset when the calls begin): p99 and max, ms. */
  loopLagMs: { p99: number; max: number } | null;
  seconds: number;
  /** With a trained face: what serving its rig took (see rooms.bench.ts); null with Ada. */
  face?: string | null;
}

/** A round holds when every visitor finished, every question was answered, no PAL slice came late and p95 heard is within the goal. */
export function held(r: Round, goalMs: number): boolean {
  return r.failedVisitors === 0 && r.unanswered === 0 && r.lateSlices === 0 && percentile(r.heardMs, 0.95) <= goalMs;
}

export function formatRound(r: Round, held: boolean): string {
  const col = (text: string, width: number) => text.padStart(width);
  return [
    col(String(r.n), 5),
    col(`${percentile(r.heardMs, 0.5).toFixed(0)} ms`, 10),
    col(`${percentile(r.heardMs, 0.95).toFixed(0)} ms`, 10),
    col(`${r.lateSlices}/${r.palSlices}`, 12),
    col(`${r.unanswered}/${r.heardMs.length + r.unanswered}`, 12),
    col(`${(r.cpuCores * 100).toFixed(0)}%`, 13),
    col(`${(r.throttledShare * 100).toFixed(0)}%`, 10),
    col(`${r.rssIdleMb.toFixed(0)}→${r.rssPeakMb.toFixed(0)} MB`, 15),
    col(`${((r.rssPeakMb - r.rssIdleMb) / r.n).toFixed(1)} MB`, 10),
    col(`${r.visitorLagP99Ms.toFixed(0)} ms`, 16),
    held ? '  held' : '  FAILED',
  ].join(' ');
}

/** Where the time went, p50/p95 of each stage's own share (the marks arrive over the same socket). */
export function formatStages(stages: TurnStages[]): string {
  const share = (pick: (s: TurnStages) => number) => {
    const values = stages.map(pick).filter((v) => Number.isFinite(v));
    return `${percentile(values, 0.5).toFixed(0)}/${percentile(values, 0.95).toFixed(0)}`;
  };
  return (
    `          stages p50/p95 ms: end of speech → end-of-turn mark ${share((s) => s.turnEnded)}, → words ${share((s) => s.transcribed - s.turnEnded)}, ` +
    `→ reply started ${share((s) => s.replyStarted - s.transcribed)}, → first audible played ${share((s) => s.heard - s.replyStarted)}`
  );
}

export function percentile(values: number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
