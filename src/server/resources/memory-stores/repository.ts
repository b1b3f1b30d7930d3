// Memory stores and pinned memories in SQL. Ownership is checked here so every route gets 403/404 alike.
import type { Db } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';

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
  const row = await db.selectFrom('pinned_memories').selectAll().where('memory_store_id', '=', storeId).where('memory_id', '=', memoryId).executeTakeFirst();
  if (!row) throw notFound(`pinned memory ${memoryId} not found`);
  return row;
}
