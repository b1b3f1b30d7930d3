// Memory stores and their pinned memories (short static facts a PAL keeps about one relationship).
import type { ResourceModule } from '../module.js';
import { badRequest, conflict } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { dateSpaceTime } from '../../platform/time.js';
import { ownedStore, pinnedMemory, PINNED_PER_STORE } from './repository.js';
import * as routes from './routes.js';

type StoreRow = {
  memory_store_id: string;
  name: string | null;
  participant_tag: string | null;
  pal_id: string | null;
  created_at: Date;
  updated_at: Date;
};
type MemoryRow = { memory_id: string; memory: string; created_at: Date; updated_at: Date };

const storeView = (s: StoreRow) => ({
  memory_store_id: s.memory_store_id,
  name: s.name,
  participant_tag: s.participant_tag,
  pal_id: s.pal_id,
  created_at: dateSpaceTime(s.created_at),
  updated_at: dateSpaceTime(s.updated_at),
});
const memoryView = (m: MemoryRow) => ({
  memory_id: m.memory_id,
  memory: m.memory,
  created_at: dateSpaceTime(m.created_at),
  updated_at: dateSpaceTime(m.updated_at),
});

export const memoryStoresModule: ResourceModule = {
  name: 'memory-stores',
  routes(app, { db, clock }) {
    app.openapi(routes.createStore, async (c) => {
      const body = c.req.valid('json');
      const id = body.memory_store_id ?? newId('m', 16);
      const now = clock.now();
      const ownerId = c.get('ownerId');
      if (body.pal_id !== undefined) {
        const pal = await db
          .selectFrom('pals')
          .select('pal_id')
          .where('pal_id', '=', body.pal_id)
          .where('owner_id', '=', ownerId)
          .executeTakeFirst();
        if (!pal) throw badRequest(`invalid_request: pal_id: PAL ${body.pal_id} not found`);
      }
      if (body.participant_tag !== undefined) {
        let q = db
          .selectFrom('memory_stores')
          .select('memory_store_id')
          .where('owner_id', '=', ownerId)
          .where('participant_tag', '=', body.participant_tag);
        q = body.pal_id === undefined ? q.where('pal_id', 'is', null) : q.where('pal_id', '=', body.pal_id);
        const taken = await q.executeTakeFirst();
        if (taken)
          throw conflict(
            `participant_tag ${body.participant_tag} already has ${body.pal_id ? `a store for PAL ${body.pal_id}` : 'a tag-based store'}: ${taken.memory_store_id}`,
          );
      }
      const row = await db
        .insertInto('memory_stores')
        .values({
          memory_store_id: id,
          owner_id: ownerId,
          name: body.name ?? null,
          participant_tag: body.participant_tag ?? null,
          pal_id: body.pal_id ?? null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw conflict(`memory store ${id} already exists`);
      return c.json(storeView(row), 200);
    });

    app.openapi(routes.listStores, async (c) => {
      const rows = await db
        .selectFrom('memory_stores')
        .selectAll()
        .where('owner_id', '=', c.get('ownerId'))
        .orderBy('created_at')
        .execute();
      return c.json({ data: rows.map(storeView) }, 200);
    });

    app.openapi(routes.getStore, async (c) =>
      c.json(storeView(await ownedStore(db, c.get('ownerId'), c.req.valid('param').memory_store_id)), 200),
    );

    app.openapi(routes.deleteStore, async (c) => {
      const { memory_store_id } = c.req.valid('param');
      await ownedStore(db, c.get('ownerId'), memory_store_id);
      await db.deleteFrom('memory_stores').where('memory_store_id', '=', memory_store_id).execute();
      return c.json({ deleted: true as const }, 200);
    });

    app.openapi(routes.createPinned, async (c) => {
      const { memory_store_id } = c.req.valid('param');
      const { memory } = c.req.valid('json');
      const row = await db.transaction().execute(async (trx) => {
        // Locking the store row serialises concurrent creates, so the limit of 30 cannot be overshot.
        await ownedStore(trx, c.get('ownerId'), memory_store_id, true);
        const { n } = await trx
          .selectFrom('pinned_memories')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('memory_store_id', '=', memory_store_id)
          .executeTakeFirstOrThrow();
        if (Number(n) >= PINNED_PER_STORE)
          throw badRequest(`memory store ${memory_store_id} already holds ${PINNED_PER_STORE} pinned memories`);
        const now = clock.now();
        return trx
          .insertInto('pinned_memories')
          .values({ memory_id: newId('pm', 16), memory_store_id, memory, created_at: now, updated_at: now })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return c.json(memoryView(row), 200);
    });

    app.openapi(routes.listPinned, async (c) => {
      const { memory_store_id } = c.req.valid('param');
      await ownedStore(db, c.get('ownerId'), memory_store_id);
      const rows = await db
        .selectFrom('pinned_memories')
        .selectAll()
        .where('memory_store_id', '=', memory_store_id)
        .orderBy('created_at')
        .orderBy('memory_id')
        .execute();
      return c.json({ data: rows.map(memoryView) }, 200);
    });

    app.openapi(routes.updatePinned, async (c) => {
      const { memory_store_id, memory_id } = c.req.valid('param');
      await ownedStore(db, c.get('ownerId'), memory_store_id);
      await pinnedMemory(db, memory_store_id, memory_id);
      const row = await db
        .updateTable('pinned_memories')
        .set({ memory: c.req.valid('json').memory, updated_at: clock.now() })
        .where('memory_id', '=', memory_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json(memoryView(row), 200);
    });

    app.openapi(routes.deletePinned, async (c) => {
      const { memory_store_id, memory_id } = c.req.valid('param');
      await ownedStore(db, c.get('ownerId'), memory_store_id);
      await pinnedMemory(db, memory_store_id, memory_id);
      await db.deleteFrom('pinned_memories').where('memory_id', '=', memory_id).execute();
      return c.json({ deleted: true as const }, 200);
    });
  },
};
