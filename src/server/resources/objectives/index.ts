// Objectives: named output variables a PAL's conversations capture (attached with objectives_id), with a
// callback when one completes. The spec refers to them without showing their endpoints; these are the least
// a caller needs.
import { sql } from 'kysely';
import { ApiError, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isoMillis } from '../../platform/time.js';
import type { ObjectiveItem } from '../../platform/db/tables/objectives.js';
import type { ResourceModule } from '../module.js';
import { captureObjectiveVariables, objectiveProgress } from './progress.js';
import * as routes from './routes.js';

type Row = { objectives_id: string; name: string | null; data: ObjectiveItem[]; created_at: Date };
const view = (r: Row) => ({
  objectives_id: r.objectives_id,
  ...(r.name ? { name: r.name } : {}),
  data: r.data,
  created_at: isoMillis(r.created_at),
});

export const objectivesModule: ResourceModule = {
  name: 'objectives',
  routes(app, deps) {
    const { db, clock } = deps;
    const owned = async (ownerId: number, id: string) => {
      const row = await db
        .selectFrom('objectives')
        .selectAll()
        .where('objectives_id', '=', id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (!row) throw notFound(`objectives ${id} not found`);
      return row;
    };
    const ownedConversation = async (ownerId: number, id: string) => {
      const row = await db
        .selectFrom('conversations')
        .select(['conversation_id', 'status'])
        .where('conversation_id', '=', id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (!row) throw notFound(`conversation ${id} not found`);
      return row;
    };

    app.openapi(routes.create, async (c) => {
      const body = c.req.valid('json');
      const row = await db
        .insertInto('objectives')
        .values({
          objectives_id: newId('o'),
          owner_id: c.get('ownerId'),
          name: body.name ?? null,
          data: JSON.stringify(body.data),
          created_at: clock.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json(view(row), 200);
    });
    app.openapi(routes.list, async (c) => {
      const rows = await db
        .selectFrom('objectives')
        .selectAll()
        .where('owner_id', '=', c.get('ownerId'))
        .orderBy('created_at', 'desc')
        .orderBy('objectives_id')
        .execute();
      return c.json({ data: rows.map(view) }, 200);
    });
    app.openapi(routes.get, async (c) => c.json(view(await owned(c.get('ownerId'), c.req.valid('param').objectives_id)), 200));
    app.openapi(routes.remove, async (c) => {
      const ownerId = c.get('ownerId');
      const { objectives_id } = c.req.valid('param');
      await owned(ownerId, objectives_id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('objectives').where('objectives_id', '=', objectives_id).execute();
        await trx
          .updateTable('pals')
          .set({ definition: sql`jsonb_set(definition, '{objectives_id}', 'null'::jsonb)` as never, updated_at: clock.now() })
          .where('owner_id', '=', ownerId)
          .where(sql<string>`definition->>'objectives_id'`, '=', objectives_id)
          .execute();
      });
      return c.json({ deleted: true as const }, 200);
    });
    app.openapi(routes.progress, async (c) => {
      const { conversation_id } = c.req.valid('param');
      await ownedConversation(c.get('ownerId'), conversation_id);
      return c.json({ data: await objectiveProgress(db, conversation_id) }, 200);
    });
    app.openapi(routes.capture, async (c) => {
      const { conversation_id } = c.req.valid('param');
      const conv = await ownedConversation(c.get('ownerId'), conversation_id);
      if (conv.status !== 'active') throw new ApiError(410, 'conversation_ended');
      return c.json({ data: await captureObjectiveVariables(deps, conversation_id, c.req.valid('json').variables) }, 200);
    });
  },
};
