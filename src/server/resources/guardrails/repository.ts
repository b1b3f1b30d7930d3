// Guardrails in SQL: ownership checks, reads shaped for the wire, and writes shared by both forms.
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { GuardrailTables } from '../../platform/db/tables/guardrails.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isoMillis } from '../../platform/time.js';
import { ITEM_PREFIX, SET_PREFIX, type GuardrailItemInput } from './schemas.js';

export type GuardrailRow = Selectable<GuardrailTables['guardrails']>;
export type GuardrailSetRow = Selectable<GuardrailTables['guardrail_sets']>;

export const isSetId = (id: string) => id.startsWith(SET_PREFIX);
export const isItemId = (id: string) => id.startsWith(ITEM_PREFIX);
export const newSetId = () => newId(SET_PREFIX, 14);
export const newItemId = () => newId(ITEM_PREFIX, 14);

export function guardrailView(row: GuardrailRow) {
  return {
    ...setItemView(row),
    guardrails_id: row.guardrails_id,
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
  };
}

/** A set item as it appears in the set document (`data[i]`). */
export function setItemView(row: GuardrailRow) {
  return {
    uuid: row.uuid,
    guardrail_name: row.guardrail_name,
    guardrail_prompt: row.guardrail_prompt,
    modality: row.modality,
    ...callbackUrl(row),
    tags: row.tags ?? [],
  };
}

/** The spec's `callback_url` is an optional string: omitted when none is set, never null. */
function callbackUrl(row: GuardrailRow): { callback_url?: string } {
  return row.callback_url ? { callback_url: row.callback_url } : {};
}

export function setView(set: GuardrailSetRow, items: GuardrailRow[]) {
  return { uuid: set.guardrails_id, name: set.name, data: items.map(setItemView) };
}

/** The set when the owner may use it; 404 when missing, 403 when another owner's. */
export async function ownedSet(db: Db, ownerId: number, id: string, forUpdate = false): Promise<GuardrailSetRow> {
  let q = db.selectFrom('guardrail_sets').selectAll().where('guardrails_id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(`guardrail set ${id} not found`);
  if (row.owner_id !== ownerId) throw forbidden(`guardrail set ${id} belongs to another account`);
  return row;
}

export async function ownedGuardrail(db: Db, ownerId: number, uuid: string, forUpdate = false): Promise<GuardrailRow> {
  let q = db.selectFrom('guardrails').selectAll().where('uuid', '=', uuid);
  if (forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(`guardrail ${uuid} not found`);
  if (row.owner_id !== ownerId) throw forbidden(`guardrail ${uuid} belongs to another account`);
  return row;
}

export function setItems(db: Db, setId: string): Promise<GuardrailRow[]> {
  return db.selectFrom('guardrails').selectAll().where('guardrails_id', '=', setId).orderBy('position').orderBy('uuid').execute();
}

/** Inserts guardrail rows (new uuids) for the given items, in order, optionally as items of a set. */
export async function insertItems(
  db: Db,
  ownerId: number,
  items: Array<GuardrailItemInput & { position?: number }>,
  setId: string | null,
  now: Date,
): Promise<GuardrailRow[]> {
  if (items.length === 0) return [];
  return db
    .insertInto('guardrails')
    .values(
      items.map((item, i) => ({
        uuid: newItemId(),
        owner_id: ownerId,
        guardrails_id: setId,
        position: item.position ?? i,
        guardrail_name: item.guardrail_name,
        guardrail_prompt: item.guardrail_prompt,
        modality: item.modality ?? 'verbal',
        callback_url: item.callback_url ?? null,
        tags: JSON.stringify(item.tags ?? []),
        created_at: now,
        updated_at: now,
      })),
    )
    .returningAll()
    .execute();
}
