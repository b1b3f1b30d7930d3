// Keeps PALs consistent when guardrails disappear: a deleted set leaves `guardrails_id` null, deleted
// individual guardrails from `guardrail_ids` (both live in pals.definition).
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export async function detachGuardrailsFromPals(
  db: Db,
  ownerId: number,
  gone: { setId?: string; uuids: string[] },
  now: Date,
): Promise<number> {
  const { setId, uuids } = gone;
  if (!setId && uuids.length === 0) return 0;
  const bySet = setId ? sql<boolean>`definition->>'guardrails_id' = ${setId}` : sql<boolean>`false`;
  const byItem = uuids.length
    ? sql<boolean>`(jsonb_typeof(definition->'guardrail_ids') = 'array' and definition->'guardrail_ids' ?| array[${sql.join(uuids)}]::text[])`
    : sql<boolean>`false`;
  const pals = await db
    .selectFrom('pals')
    .select(['pal_id', 'definition'])
    .where('owner_id', '=', ownerId)
    .where(sql<boolean>`(${bySet} or ${byItem})`)
    .forUpdate()
    .execute();
  const goneIds = new Set(uuids);
  for (const pal of pals) {
    const definition = { ...pal.definition };
    // Cleaned, not dropped: the PAL read shows `guardrails_id: null`, as for a PAL that never had a set.
    if (setId && definition.guardrails_id === setId) definition.guardrails_id = null;
    if (Array.isArray(definition.guardrail_ids))
      definition.guardrail_ids = definition.guardrail_ids.filter((id) => !goneIds.has(String(id)));
    await db
      .updateTable('pals')
      .set({ definition: JSON.stringify(definition), updated_at: now })
      .where('pal_id', '=', pal.pal_id)
      .execute();
  }
  return pals.length;
}
