// Memory stores and pinned memories in SQL. Ownership is checked here so every route gets 403/404 alike.
import type { Db } from '../../platform/db/database.js';
import { forbidden, notFound } from '../../platform/http/errors.js';

export const PINNED_PER_STORE = 30;

/** The store row when the owner may use it; 404 when missing, 403 when another owner's. */
export async function ownedStore(db: Db, ownerId: number, storeId: string, forUpdate = false) {
  let q = db.selectFrom('memory_stores').selectAll().where('memory_store_id', '=', storeId);
  if (forUpdate) q = q.forUpdate();
  const store = await q.executeTakeFirst();
  if (!store) throw notFound(`memory store ${storeId} not found`);
  if (store.owner_id !== ownerId) throw forbidden(`memory store ${storeId} belongs to another account`);
  return store;
}

export async function pinnedMemory(db: Db, storeId: string, memoryId: string) {
  const row = await db
    .selectFrom('pinned_memories')
    .selectAll()
    .where('memory_store_id', '=', storeId)
    .where('memory_id', '=', memoryId)
    .executeTakeFirst();
  if (!row) throw notFound(`pinned memory ${memoryId} not found`);
  return row;
}

/**
 * The stores whose pinned memories a conversation's PAL recalls, from the conversation's `memory_stores`
 * (stable visitor identifiers, as the spec has them on deployment start):
 * - several values, or a visitor who has legacy memory (a tag-based store: participant_tag set, no
 *   pal_id): the tag-based stores of all the values;
 * - a single value otherwise: the PAL-specific store with that participant tag.
 * A value naming one of the owner's stores by id is still honoured for conversations created with an
 * API key (deployment start refuses store ids, as the spec says).
 */
export async function visitorMemoryStoreIds(db: Db, ownerId: number, palId: string, values: readonly string[]): Promise<string[]> {
  const tags = [...new Set(values)];
  if (tags.length === 0) return [];
  const owned = db.selectFrom('memory_stores').select(['memory_store_id', 'participant_tag', 'pal_id']).where('owner_id', '=', ownerId);
  const tagBased = await owned.where('participant_tag', 'in', tags).where('pal_id', 'is', null).execute();
  const byId = await owned.where('memory_store_id', 'in', tags).execute();
  let chosen = tagBased;
  if (tags.length === 1 && tagBased.length === 0)
    chosen = await owned.where('participant_tag', '=', tags[0]!).where('pal_id', '=', palId).execute();
  return [...new Set([...chosen, ...byId].map((s) => s.memory_store_id))];
}

/** Whether `value` names one of the owner's stores by id without also being a visitor's participant tag. */
export async function namesOwnStoreId(db: Db, ownerId: number, values: readonly string[]): Promise<boolean> {
  if (values.length === 0) return false;
  const rows = await db
    .selectFrom('memory_stores')
    .select('memory_store_id')
    .where('owner_id', '=', ownerId)
    .where('memory_store_id', 'in', [...values])
    .execute();
  if (rows.length === 0) return false;
  const tagged = await db
    .selectFrom('memory_stores')
    .select('participant_tag')
    .where('owner_id', '=', ownerId)
    .where(
      'participant_tag',
      'in',
      rows.map((r) => r.memory_store_id),
    )
    .execute();
  const tags = new Set(tagged.map((r) => r.participant_tag));
  return rows.some((r) => !tags.has(r.memory_store_id));
}
