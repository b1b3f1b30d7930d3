// Individual guardrails: create, partial update (object or JSON Patch), delete. An item of a set is the
// same row, so changing or deleting it here changes or shrinks its set.
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from '../../platform/http/json-patch.js';
import { detachGuardrailsFromPals } from './pal-cleanup.js';
import { guardrailView, insertItems, ownedGuardrail, setItemView } from './repository.js';
import { GuardrailItemInput, type UpdateGuardrail } from './schemas.js';
import type { z } from '@hono/zod-openapi';

export async function createGuardrail(db: Db, ownerId: number, body: GuardrailItemInput, now: Date) {
  const [row] = await insertItems(db, ownerId, [body], null, now);
  return guardrailView(row!);
}

export async function readGuardrail(db: Db, ownerId: number, uuid: string) {
  return guardrailView(await ownedGuardrail(db, ownerId, uuid));
}

type Update = z.infer<typeof UpdateGuardrail>;

export async function updateGuardrail(db: Db, ownerId: number, uuid: string, change: Update | JsonPatchOperation[], now: Date) {
  return db.transaction().execute(async (trx) => {
    const row = await ownedGuardrail(trx, ownerId, uuid, true);
    const { uuid: _uuid, ...current } = setItemView(row);
    let next: GuardrailItemInput;
    if (Array.isArray(change)) {
      let patched: unknown;
      try {
        patched = applyJsonPatch(current, change);
      } catch (error) {
        if (error instanceof JsonPatchError) throw badRequest(`invalid_patch: ${error.message}`);
        throw error;
      }
      const parsed = GuardrailItemInput.safeParse(patched);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw badRequest(`invalid_patch: result is not a valid guardrail: ${issue.path.join('.') || 'document'}: ${issue.message}`);
      }
      next = parsed.data;
    } else {
      next = { ...current, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) } as GuardrailItemInput;
    }
    const updated = await trx
      .updateTable('guardrails')
      .set({
        guardrail_name: next.guardrail_name,
        guardrail_prompt: next.guardrail_prompt,
        modality: next.modality ?? 'verbal',
        callback_url: next.callback_url ?? null,
        tags: JSON.stringify(next.tags ?? []),
        updated_at: now,
      })
      .where('uuid', '=', uuid)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (row.guardrails_id)
      await trx.updateTable('guardrail_sets').set({ updated_at: now }).where('guardrails_id', '=', row.guardrails_id).execute();
    return guardrailView(updated);
  });
}

export async function deleteGuardrail(db: Db, ownerId: number, uuid: string, now: Date) {
  await db.transaction().execute(async (trx) => {
    const row = await ownedGuardrail(trx, ownerId, uuid, true);
    await trx.deleteFrom('guardrails').where('uuid', '=', uuid).execute();
    if (row.guardrails_id)
      await trx.updateTable('guardrail_sets').set({ updated_at: now }).where('guardrails_id', '=', row.guardrails_id).execute();
    await detachGuardrailsFromPals(trx, ownerId, { uuids: [uuid] }, now);
  });
}
