// Guardrails: individual guardrails (uuid `gr…`) and the deprecated named sets (`gs…`) on one resource.
// POST tells the forms apart by body shape (top-level guardrail_name → individual); GET, PATCH and
// DELETE by the identifier's prefix.
import { sql } from 'kysely';
import type { ResourceModule } from '../module.js';
import { badRequest } from '../../platform/http/errors.js';
import { isoMillis } from '../../platform/time.js';
import { createGuardrail, deleteGuardrail, readGuardrail, updateGuardrail } from './items.js';
import { guardrailView, isItemId, isSetId, setView } from './repository.js';
import * as routes from './routes.js';
import { CreateGuardrail, CreateGuardrailSet, UpdateGuardrail } from './schemas.js';
import { createSet, deleteSet, patchSet, readSet } from './sets.js';

const unknownForm = (id: string) => badRequest(`invalid_request: ${id} is neither a guardrail set id (gs…) nor a guardrail uuid (gr…)`);

export const guardrailsModule: ResourceModule = {
  name: 'guardrails',
  routes(app, { db, clock }) {
    app.openapi(routes.listTags, async (c) => {
      const rows = await sql<{ tag: string; count: number }>`
        select t.tag, count(*)::int as count from guardrails g, jsonb_array_elements_text(g.tags) as t(tag)
        where g.owner_id = ${c.get('ownerId')} group by t.tag order by t.tag`.execute(db);
      return c.json({ data: rows.rows.map((r) => ({ tag: r.tag, count: Number(r.count) })) }, 200);
    });

    app.openapi(routes.createGuardrails, async (c) => {
      const body = c.req.valid('json');
      const ownerId = c.get('ownerId');
      if ('guardrail_name' in body) return c.json(await createGuardrail(db, ownerId, CreateGuardrail.parse(body), clock.now()), 200);
      return c.json(await createSet(db, ownerId, CreateGuardrailSet.parse(body), clock.now()), 200);
    });

    app.openapi(routes.listGuardrails, async (c) => {
      const query = c.req.valid('query');
      const ownerId = c.get('ownerId');
      const page = query.page ?? 1;
      const limit = query.limit ?? 50;
      const offset = (page - 1) * limit;
      if (query.legacy !== 'false') {
        const base = db.selectFrom('guardrail_sets').where('owner_id', '=', ownerId);
        const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const sets = await base.selectAll().orderBy('created_at', 'desc').orderBy('guardrails_id').limit(limit).offset(offset).execute();
        const items = sets.length
          ? await db
              .selectFrom('guardrails')
              .selectAll()
              .where(
                'guardrails_id',
                'in',
                sets.map((s) => s.guardrails_id),
              )
              .orderBy('position')
              .orderBy('uuid')
              .execute()
          : [];
        const data = sets.map((s) => ({
          ...setView(
            s,
            items.filter((i) => i.guardrails_id === s.guardrails_id),
          ),
          created_at: isoMillis(s.created_at),
          updated_at: isoMillis(s.updated_at),
        }));
        return c.json({ data, total_count: Number(n), page, limit }, 200);
      }
      let base = db.selectFrom('guardrails').where('owner_id', '=', ownerId);
      if (query.tag) base = base.where(sql<boolean>`tags ? ${query.tag}`);
      const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('uuid').limit(limit).offset(offset).execute();
      return c.json({ data: rows.map(guardrailView), total_count: Number(n), page, limit }, 200);
    });

    app.openapi(routes.getGuardrails, async (c) => {
      const { guardrails_id: id } = c.req.valid('param');
      const ownerId = c.get('ownerId');
      if (isSetId(id)) return c.json(await readSet(db, ownerId, id), 200);
      if (isItemId(id)) return c.json(await readGuardrail(db, ownerId, id), 200);
      throw unknownForm(id);
    });

    app.openapi(routes.patchGuardrails, async (c) => {
      const { guardrails_id: id } = c.req.valid('param');
      const body = c.req.valid('json');
      const ownerId = c.get('ownerId');
      if (isSetId(id)) {
        if (!Array.isArray(body))
          throw badRequest(
            'invalid_request: a guardrail set is changed with a JSON Patch array, e.g. [{"op":"replace","path":"/data/0/guardrail_prompt","value":"…"}]',
          );
        return c.json(await patchSet(db, ownerId, id, body, clock.now()), 200);
      }
      if (isItemId(id))
        return c.json(await updateGuardrail(db, ownerId, id, Array.isArray(body) ? body : UpdateGuardrail.parse(body), clock.now()), 200);
      throw unknownForm(id);
    });

    app.openapi(routes.deleteGuardrails, async (c) => {
      const { guardrails_id: id } = c.req.valid('param');
      const ownerId = c.get('ownerId');
      if (isSetId(id)) await deleteSet(db, ownerId, id, clock.now());
      else if (isItemId(id)) await deleteGuardrail(db, ownerId, id, clock.now());
      else throw unknownForm(id);
      return c.json({ deleted: true as const }, 200);
    });
  },
};
