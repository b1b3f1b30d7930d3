// Resolves a PAL's guardrail references (individual ids, tags, a deprecated set) into the guardrails it
// runs with; PAL creation calls this to validate the references.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
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
    const set = await db.selectFrom('guardrail_sets').select('guardrails_id').where('guardrails_id', '=', refs.guardrails_id).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!set) throw badRequest(`guardrails_id: guardrail set ${refs.guardrails_id} not found`);
    ordered.push(...(await db.selectFrom('guardrails').selectAll().where('guardrails_id', '=', set.guardrails_id).orderBy('position').orderBy('uuid').execute()));
  }
  if (ids.length) {
    const rows = await db.selectFrom('guardrails').selectAll().where('owner_id', '=', ownerId).where('uuid', 'in', ids).execute();
    const found = new Map(rows.map((r) => [r.uuid, r]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw badRequest(`guardrail_ids: guardrail ${missing.join(', ')} not found`);
    ordered.push(...ids.map((id) => found.get(id)!));
  }
  if (tags.length) {
    ordered.push(
      ...(await db
        .selectFrom('guardrails')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where(sql<boolean>`tags ?| array[${sql.join(tags)}]::text[]`)
        .orderBy('created_at')
        .orderBy('uuid')
        .execute()),
    );
  }

  const seen = new Set<string>();
  const result: ResolvedGuardrail[] = [];
  for (const row of ordered) {
    if (seen.has(row.uuid)) continue;
    seen.add(row.uuid);
    result.push({ uuid: row.uuid, guardrail_name: row.guardrail_name, guardrail_prompt: row.guardrail_prompt, modality: row.modality, callback_url: row.callback_url });
  }
  if (result.length > MAX_GUARDRAILS_PER_PAL) {
    throw badRequest(`guardrails: the references resolve to ${result.length} guardrails; a PAL may have at most ${MAX_GUARDRAILS_PER_PAL} in total`);
  }
  return result;
}
