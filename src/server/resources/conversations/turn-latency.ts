// What visitors heard of the PAL's replies, as their pages measured it (issue 26): stored with the
// conversation (shown in the verbose read), counted in /metrics, and summed up as p50/p95 in
// `application.transcription_ready`. A figure the page could not take stays absent, never 0.
import type { TurnLatencyFrame } from '../../../protocol/room.js';
import type { ServiceMetrics } from '../../platform/metrics.js';
import type { Db } from '../../platform/db/database.js';

/** Reports kept per conversation: one per PAL reply, so a page sending more is not reporting replies. */
export const MAX_TURN_LATENCIES = 500;
/**
 * How much earlier than the room first saw a reply's id the visitor's turn may have ended: the silence
 * before the end of a spoken turn was decided, the PAL's thinking before its first words (a reply's id
 * reaches the room with them), and the socket's delays. A wait reported longer than the reply has existed
 * plus this never happened.
 */
export const TURN_END_SLACK_MS = 30_000;

/**
 * The replies the PAL made in one room, and which of them a page already reported: a report counts only
 * for one of them, once, with waits no longer than the reply has existed (issue 34: forged reports for
 * replies that never happened went straight into the service-wide histograms). Bounded like the reports.
 */
export class RoomReplies {
  /** Inference id → when the room first saw it (ms, the service's clock), oldest first. */
  private readonly seen = new Map<string, number>();
  private readonly reported = new Set<string>();

  /** A message of the PAL's: its inference id is a reply of this room from now on. */
  noteMessage(message: { inference_id?: unknown }, now: number): void {
    const id = message.inference_id;
    if (typeof id !== 'string' || !id || this.seen.has(id)) return;
    this.seen.set(id, now);
    if (this.seen.size > MAX_TURN_LATENCIES) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Whether the report is about a reply of this room, not reported before, with possible waits; a yes is final. */
  accept(frame: TurnLatencyFrame, now: number): boolean {
    const since = this.seen.get(frame.inference_id);
    if (since === undefined || this.reported.has(frame.inference_id) || this.reported.size >= MAX_TURN_LATENCIES) return false;
    const longest = now - since + TURN_END_SLACK_MS;
    if ((frame.heard_ms ?? 0) > longest || (frame.mouth_ms ?? 0) > longest) return false;
    this.reported.add(frame.inference_id);
    return true;
  }
}

export interface TurnLatency {
  inference_id: string;
  input: 'text' | 'speech';
  turn_ended_at: number;
  heard_ms?: number;
  mouth_ms?: number;
  lip_sync_ms?: number;
}

export function observeTurnLatency(metrics: Pick<ServiceMetrics, 'turnHeard' | 'turnMouth' | 'lipSync'>, frame: TurnLatencyFrame): void {
  if (frame.heard_ms !== undefined) metrics.turnHeard.observe({ input: frame.input }, frame.heard_ms / 1000);
  if (frame.mouth_ms !== undefined) metrics.turnMouth.observe({ input: frame.input }, frame.mouth_ms / 1000);
  if (frame.lip_sync_ms !== undefined) metrics.lipSync.observe(frame.lip_sync_ms / 1000);
}

export async function storeTurnLatency(db: Db, conversationId: string, frame: TurnLatencyFrame): Promise<void> {
  await db
    .insertInto('conversation_turn_latencies')
    .values({
      conversation_id: conversationId,
      inference_id: frame.inference_id,
      input: frame.input,
      turn_ended_at: frame.turn_ended_at,
      heard_ms: frame.heard_ms ?? null,
      mouth_ms: frame.mouth_ms ?? null,
      lip_sync_ms: frame.lip_sync_ms ?? null,
    })
    .execute();
}

export async function loadTurnLatencies(db: Db, conversationId: string): Promise<TurnLatency[]> {
  const rows = await db
    .selectFrom('conversation_turn_latencies')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('latency_id')
    .execute();
  return rows.map((r) => ({
    inference_id: r.inference_id,
    input: r.input === 'speech' ? 'speech' : 'text',
    turn_ended_at: Number(r.turn_ended_at),
    ...(r.heard_ms !== null ? { heard_ms: Number(r.heard_ms) } : {}),
    ...(r.mouth_ms !== null ? { mouth_ms: Number(r.mouth_ms) } : {}),
    ...(r.lip_sync_ms !== null ? { lip_sync_ms: Number(r.lip_sync_ms) } : {}),
  }));
}

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
}

export interface TurnLatencySummary {
  turns: number;
  heard_ms?: Percentiles;
  mouth_ms?: Percentiles;
  lip_sync_ms?: Percentiles;
}

/** Nearest-rank percentiles of what was measured (a figure with no measurement is left out). */
export function summarizeTurnLatencies(turns: readonly TurnLatency[]): TurnLatencySummary | null {
  if (turns.length === 0) return null;
  const of = (pick: (t: TurnLatency) => number | undefined): Percentiles | undefined => {
    const values = turns
      .map(pick)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    if (values.length === 0) return undefined;
    const rank = (p: number) => values[Math.max(0, Math.ceil(p * values.length) - 1)]!;
    return { count: values.length, p50: Math.round(rank(0.5)), p95: Math.round(rank(0.95)) };
  };
  const heard = of((t) => t.heard_ms);
  const mouth = of((t) => t.mouth_ms);
  const lip = of((t) => t.lip_sync_ms);
  return {
    turns: turns.length,
    ...(heard ? { heard_ms: heard } : {}),
    ...(mouth ? { mouth_ms: mouth } : {}),
    ...(lip ? { lip_sync_ms: lip } : {}),
  };
}
