// Resolves a PAL's guardrail references (individual ids, tags, a deprecated set) into the guardrails it
// runs with; PAL creation calls this to validate the references.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import type { GuardrailRow } from './repository.js';

export const MAX_GUARDRAILS_PER_PAL = 50;

export interface ResolvedGuardrail {
  uuid: string;
  guardrail_name: string;
  guardrail_prompt: string;
  modality: 'verbal' | 'visual';
  callback_url: string | null;
}

export interface GuardrailRefs {
  guardrail_ids?: string[];
  guardrail_tags?: string[];
  guardrails_id?: string;
}

/**
 * The owner's guardrails named by `refs`, without duplicates: the set's items in set order, then the
 * listed ids in the order given, then tag matches (oldest first). Throws badRequest (400) for an
 * unknown or foreign id or set, more than 50 ids or tags, or more than 50 guardrails in total.
 */
export async function resolveGuardrails(db: Db, ownerId: number, refs: GuardrailRefs): Promise<ResolvedGuardrail[]> {
  const ids = [...new Set(refs.guardrail_ids ?? [])];
  const tags = [...new Set(refs.guardrail_tags ?? [])];
  if (ids.length > MAX_GUARDRAILS_PER_PAL) throw badRequest(`guardrail_ids: at most ${MAX_GUARDRAILS_PER_PAL} guardrails`);
  if (tags.length > MAX_GUARDRAILS_PER_PAL) throw badRequest(`guardrail_tags: at most ${MAX_GUARDRAILS_PER_PAL} tags`);
  const ordered: GuardrailRow[] = [];

  if (refs.guardrails_id !== undefined) {
    const items = await setItems(db, ownerId, refs.guardrails_id);
    if (!items) throw badRequest(`guardrails_id: guardrail set ${refs.guardrails_id} not found`);
    ordered.push(...items);
  }
  if (ids.length) {
    const found = await byIds(db, ownerId, ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw badRequest(`guardrail_ids: guardrail ${missing.join(', ')} not found`);
    ordered.push(...ids.map((id) => found.get(id)!));
  }
  if (tags.length) ordered.push(...(await byTags(db, ownerId, tags, 'oldest')));

  const result = distinct(ordered);
  if (result.length > MAX_GUARDRAILS_PER_PAL) {
    throw badRequest(
      `guardrails: the references resolve to ${result.length} guardrails; a PAL may have at most ${MAX_GUARDRAILS_PER_PAL} in total`,
    );
  }
  return result;
}

/**
 * The guardrails a conversation runs with. Unlike PAL creation this never refuses: tags are matched
 * when the room opens, so guardrails added since can make them match more than 50, and references may
 * have been deleted since. Missing references are skipped. The cap of 50 is kept by taking the set's
 * items and the listed ids first (the author named them one by one), then the most recently created
 * tag matches until 50 (a newer rule is likelier to state current policy than an old one); the rest
 * are reported as `dropped` so the caller can log them. Dropping every guardrail, as a refusal would,
 * is the one outcome that is never right.
 */
export async function guardrailsForConversation(
  db: Db,
  ownerId: number,
  refs: GuardrailRefs,
): Promise<{ guardrails: ResolvedGuardrail[]; dropped: number }> {
  const ids = [...new Set(refs.guardrail_ids ?? [])].slice(0, MAX_GUARDRAILS_PER_PAL);
  const tags = [...new Set(refs.guardrail_tags ?? [])].slice(0, MAX_GUARDRAILS_PER_PAL);
  const explicit: GuardrailRow[] = [];
  if (refs.guardrails_id !== undefined) explicit.push(...((await setItems(db, ownerId, refs.guardrails_id)) ?? []));
  if (ids.length) {
    const found = await byIds(db, ownerId, ids);
    for (const id of ids) if (found.has(id)) explicit.push(found.get(id)!);
  }
  const all = distinct([...explicit, ...(tags.length ? await byTags(db, ownerId, tags, 'newest') : [])]);
  return { guardrails: all.slice(0, MAX_GUARDRAILS_PER_PAL), dropped: Math.max(0, all.length - MAX_GUARDRAILS_PER_PAL) };
}

async function setItems(db: Db, ownerId: number, guardrailsId: string): Promise<GuardrailRow[] | null> {
  const set = await db
    .selectFrom('guardrail_sets')
    .select('guardrails_id')
    .where('guardrails_id', '=', guardrailsId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!set) return null;
  return db
    .selectFrom('guardrails')
    .selectAll()
    .where('guardrails_id', '=', set.guardrails_id)
    .orderBy('position')
    .orderBy('uuid')
    .execute();
}

async function byIds(db: Db, ownerId: number, ids: string[]): Promise<Map<string, GuardrailRow>> {
  const rows = await db.selectFrom('guardrails').selectAll().where('owner_id', '=', ownerId).where('uuid', 'in', ids).execute();
  return new Map(rows.map((r) => [r.uuid, r]));
}

function byTags(db: Db, ownerId: number, tags: string[], order: 'oldest' | 'newest'): Promise<GuardrailRow[]> {
  const direction = order === 'oldest' ? 'asc' : 'desc';
  return db
    .selectFrom('guardrails')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where(sql<boolean>`tags ?| array[${sql.join(tags)}]::text[]`)
    .orderBy('created_at', direction)
    .orderBy('uuid', direction)
    .execute();
}

function distinct(rows: GuardrailRow[]): ResolvedGuardrail[] {
  const seen = new Set<string>();
  const result: ResolvedGuardrail[] = [];
  for (const row of rows) {
    if (seen.has(row.uuid)) continue;
    seen.add(row.uuid);
    result.push({
      uuid: row.uuid,
      guardrail_name: row.guardrail_name,
      guardrail_prompt: row.guardrail_prompt,
      modality: row.modality,
      callback_url: row.callback_url,
    });
  }
  return result;
}
