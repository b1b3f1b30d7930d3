// Recorded Magic Canvas interactions (idempotent on interaction_id) and the per-address rate windows of
// the public endpoint, both in the database so that every instance sees the same counts.
import { createHash } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { CanvasInteractionRecord } from '../../../protocol/callbacks.js';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { isoMillis } from '../../platform/time.js';

export const CANVAS_RATE_LIMIT = 120;
export const CANVAS_RATE_WINDOW_MS = 60_000;

export interface CanvasInteractionInput {
  interaction_id: string;
  tool_call_id: string;
  component: string;
  component_version: string;
  type: CanvasInteractionRecord['type'];
  value: Record<string, unknown>;
  metadata?: Record<string, unknown> | undefined;
}

/** Counts one request; returns the seconds to wait when it is over the limit, else null. */
export async function countCanvasRequest(db: Db, address: string, conversationId: string, now: Date): Promise<number | null> {
  const bucket = createHash('sha256').update(`${address}|${conversationId}`).digest('hex');
  const windowStart = new Date(Math.floor(now.getTime() / CANVAS_RATE_WINDOW_MS) * CANVAS_RATE_WINDOW_MS);
  const row = await db
    .insertInto('canvas_interaction_rate')
    .values({ bucket, window_start: windowStart, hits: 1 })
    .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ hits: sql`canvas_interaction_rate.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  if (row.hits <= CANVAS_RATE_LIMIT) return null;
  return Math.max(1, Math.ceil((windowStart.getTime() + CANVAS_RATE_WINDOW_MS - now.getTime()) / 1000));
}

export type RecordOutcome = { kind: 'recorded'; record: CanvasInteractionRecord } | { kind: 'repeat' } | { kind: 'conflict' };

/** Records the interaction; a repeat with the same content (metadata aside) is `repeat`, other content `conflict`. */
export async function recordCanvasInteraction(
  db: Db,
  conversationId: string,
  input: CanvasInteractionInput,
  now: Date,
): Promise<RecordOutcome> {
  const inserted = await db
    .insertInto('canvas_interactions')
    .values({
      conversation_id: conversationId,
      interaction_id: input.interaction_id,
      tool_call_id: input.tool_call_id,
      component: input.component,
      component_version: input.component_version,
      type: input.type,
      value: JSON.stringify(input.value),
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['conversation_id', 'interaction_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { kind: 'recorded', record: view(inserted) };
  const existing = await db
    .selectFrom('canvas_interactions')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('interaction_id', '=', input.interaction_id)
    .executeTakeFirstOrThrow();
  const same =
    existing.tool_call_id === input.tool_call_id &&
    existing.component === input.component &&
    existing.component_version === input.component_version &&
    existing.type === input.type &&
    canonical(existing.value) === canonical(input.value);
  return same ? { kind: 'repeat' } : { kind: 'conflict' };
}

export async function listCanvasInteractions(db: Db, conversationId: string): Promise<CanvasInteractionRecord[]> {
  const rows = await db
    .selectFrom('canvas_interactions')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('seq')
    .execute();
  return rows.map(view);
}

function view(r: Selectable<Database['canvas_interactions']>): CanvasInteractionRecord {
  return {
    conversation_id: r.conversation_id,
    interaction_id: r.interaction_id,
    tool_call_id: r.tool_call_id,
    component: r.component,
    component_version: r.component_version,
    type: r.type as CanvasInteractionRecord['type'],
    value: r.value,
    metadata: r.metadata,
    created_at: isoMillis(r.created_at),
  };
}

/** JSON with object keys sorted (jsonb does not keep the order it was given). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
