// The deprecated guardrail set form: create, patch (identity-preserving JSON Patch) and delete.
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { JsonPatchError, type JsonPatchOperation } from '../../platform/http/json-patch.js';
import { isoMillis } from '../../platform/time.js';
import { detachGuardrailsFromPals } from './pal-cleanup.js';
import { insertItems, newSetId, ownedSet, setItems, setView, type GuardrailRow } from './repository.js';
import type { GuardrailItemInput } from './schemas.js';
import { patchSetDocument } from './set-patch.js';

export async function createSet(db: Db, ownerId: number, body: { name: string; data: GuardrailItemInput[] }, now: Date) {
  return db.transaction().execute(async (trx) => {
    const set = await trx
      .insertInto('guardrail_sets')
      .values({ guardrails_id: newSetId(), owner_id: ownerId, name: body.name, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertItems(trx, ownerId, body.data, set.guardrails_id, now);
    return {
      guardrails_id: set.guardrails_id,
      guardrails_name: set.name,
      status: 'active' as const,
      created_at: isoMillis(set.created_at),
    };
  });
}

export async function readSet(db: Db, ownerId: number, id: string) {
  const set = await ownedSet(db, ownerId, id);
  return setView(set, await setItems(db, id));
}

const sameItem = (row: GuardrailRow, item: GuardrailItemInput, position: number) =>
  row.position === position &&
  row.guardrail_name === item.guardrail_name &&
  row.guardrail_prompt === item.guardrail_prompt &&
  row.modality === (item.modality ?? 'verbal') &&
  row.callback_url === (item.callback_url ?? null) &&
  JSON.stringify(row.tags ?? []) === JSON.stringify(item.tags ?? []);

export async function patchSet(db: Db, ownerId: number, id: string, operations: JsonPatchOperation[], now: Date) {
  return db.transaction().execute(async (trx) => {
    // The row lock serialises concurrent patches of one set.
    const set = await ownedSet(trx, ownerId, id, true);
    const rows = await setItems(trx, id);
    const current = setView(set, rows);
    let patched;
    try {
      patched = patchSetDocument({ name: current.name, data: current.data }, operations);
    } catch (error) {
      if (error instanceof JsonPatchError) throw badRequest(`invalid_patch: ${error.message}`);
      throw error;
    }
    const byUuid = new Map(rows.map((r) => [r.uuid, r]));
    const kept = new Set(patched.data.flatMap((item) => (item.uuid ? [item.uuid] : [])));
    const removed = rows.filter((r) => !kept.has(r.uuid)).map((r) => r.uuid);
    if (removed.length) await trx.deleteFrom('guardrails').where('uuid', 'in', removed).execute();
    const added: Array<GuardrailItemInput & { position: number }> = [];
    for (const [position, item] of patched.data.entries()) {
      const row = item.uuid ? byUuid.get(item.uuid) : undefined;
      if (!row) {
        added.push({ ...item, position });
        continue;
      }
      if (sameItem(row, item, position)) continue;
      await trx
        .updateTable('guardrails')
        .set({
          position,
          guardrail_name: item.guardrail_name,
          guardrail_prompt: item.guardrail_prompt,
          modality: item.modality ?? 'verbal',
          callback_url: item.callback_url ?? null,
          tags: JSON.stringify(item.tags ?? []),
          updated_at: now,
        })
        .where('uuid', '=', row.uuid)
        .execute();
    }
    await insertItems(trx, ownerId, added, id, now);
    const updated = await trx
      .updateTable('guardrail_sets')
      .set({ name: patched.name, updated_at: now })
      .where('guardrails_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await detachGuardrailsFromPals(trx, ownerId, { uuids: removed }, now);
    return setView(updated, await setItems(trx, id));
  });
}

export async function deleteSet(db: Db, ownerId: number, id: string, now: Date) {
  await db.transaction().execute(async (trx) => {
    await ownedSet(trx, ownerId, id, true);
    const items = await trx.selectFrom('guardrails').select('uuid').where('guardrails_id', '=', id).execute();
    await trx.deleteFrom('guardrails').where('guardrails_id', '=', id).execute();
    await trx.deleteFrom('guardrail_sets').where('guardrails_id', '=', id).execute();
    await detachGuardrailsFromPals(trx, ownerId, { setId: id, uuids: items.map((i) => i.uuid) }, now);
  });
}
