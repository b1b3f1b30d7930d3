// Handlers of PAL skills: attach/replace, read, merge, detach, replace the set, and the registry.
import { z } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/database.js';
import type { ApiApp } from '../../../platform/http/app-env.js';
import { ApiError, badRequest, describeZodError, notFound } from '../../../platform/http/errors.js';
import { ownedPal } from '../repository.js';
import { validateDocumentReferences } from '../references.js';
import { findSkill, skillRegistry } from './registry.js';
import { attachedSkills, attachmentView, upsertAttachment } from './repository.js';
import * as routes from './routes.js';

type Config = Record<string, unknown>;
const isObject = (v: unknown): v is Config => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7396 JSON Merge Patch: objects merge, null removes, anything else replaces. */
export function mergeConfig(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Config = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergeConfig(out[key], value);
  }
  return out;
}

/** The config checked against the skill's schema (400 naming the field) and its references. */
async function checkedConfig(db: Db, ownerId: number, skillId: string, config: unknown): Promise<Config> {
  const skill = findSkill(skillId);
  if (!skill) throw badRequest(`Unknown skill '${skillId}'`);
  const parsed = skill.config.safeParse(config ?? {});
  if (!parsed.success) {
    const error = new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: ['config', ...i.path] })));
    throw new ApiError(400, describeZodError(error));
  }
  if (skillId === 'presentation')
    await validateDocumentReferences(db, ownerId, parsed.data.document_ids as string[], 'config.document_ids');
  return parsed.data;
}

export function registerSkillRoutes(app: ApiApp, deps: ServiceDeps): void {
  const { db, clock } = deps;

  async function attachment(palId: string, skillId: string) {
    const row = await db
      .selectFrom('pal_skills')
      .selectAll()
      .where('pal_id', '=', palId)
      .where('skill_id', '=', skillId)
      .executeTakeFirst();
    if (!row) throw notFound(`Skill '${skillId}' is not attached to this PAL`);
    return row;
  }

  app.openapi(routes.attach, async (c) => {
    const { pal_id, skill_id } = c.req.valid('param');
    await ownedPal(db, c.get('ownerId'), pal_id);
    const config = await checkedConfig(db, c.get('ownerId'), skill_id, c.req.valid('json').config);
    return c.json(attachmentView(await upsertAttachment(db, pal_id, skill_id, config, clock.now())), 200);
  });

  app.openapi(routes.getOne, async (c) => {
    const { pal_id, skill_id } = c.req.valid('param');
    await ownedPal(db, c.get('ownerId'), pal_id);
    return c.json(attachmentView(await attachment(pal_id, skill_id)), 200);
  });

  app.openapi(routes.list, async (c) => {
    const { pal_id } = c.req.valid('param');
    await ownedPal(db, c.get('ownerId'), pal_id);
    const rows = await attachedSkills(db, pal_id);
    return c.json({ data: Object.fromEntries(rows.map((r) => [r.skill_id, attachmentView(r)])) }, 200);
  });

  app.openapi(routes.merge, async (c) => {
    const { pal_id, skill_id } = c.req.valid('param');
    await ownedPal(db, c.get('ownerId'), pal_id);
    const current = await attachment(pal_id, skill_id);
    const config = await checkedConfig(db, c.get('ownerId'), skill_id, mergeConfig(current.config, c.req.valid('json').config));
    const row = await db
      .updateTable('pal_skills')
      .set({ config: JSON.stringify(config), updated_at: clock.now() })
      .where('pal_id', '=', pal_id)
      .where('skill_id', '=', skill_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json(attachmentView(row), 200);
  });

  app.openapi(routes.detach, async (c) => {
    const { pal_id, skill_id } = c.req.valid('param');
    await ownedPal(db, c.get('ownerId'), pal_id);
    await attachment(pal_id, skill_id);
    await db.deleteFrom('pal_skills').where('pal_id', '=', pal_id).where('skill_id', '=', skill_id).execute();
    return c.json({ skill_id, deleted: true as const }, 200);
  });

  app.openapi(routes.replaceAll, async (c) => {
    const { pal_id } = c.req.valid('param');
    const ownerId = c.get('ownerId');
    const { skills } = c.req.valid('json');
    const rows = await db.transaction().execute(async (trx) => {
      await ownedPal(trx, ownerId, pal_id, true);
      // Every config is checked before anything changes: a bad one leaves the set as it was.
      const configs: Array<[string, Config]> = [];
      for (const [skillId, body] of Object.entries(skills))
        configs.push([skillId, await checkedConfig(trx, ownerId, skillId, body.config)]);
      let removal = trx.deleteFrom('pal_skills').where('pal_id', '=', pal_id);
      if (configs.length > 0)
        removal = removal.where(
          'skill_id',
          'not in',
          configs.map(([id]) => id),
        );
      await removal.execute();
      const now = clock.now();
      for (const [skillId, config] of configs) await upsertAttachment(trx, pal_id, skillId, config, now);
      return attachedSkills(trx, pal_id);
    });
    return c.json({ data: Object.fromEntries(rows.map((r) => [r.skill_id, attachmentView(r)])) }, 200);
  });

  app.openapi(routes.registry, async (c) =>
    c.json(
      {
        data: skillRegistry.map((s) => ({
          skill_id: s.skill_id,
          name: s.name,
          description: s.description,
          config_schema: z.toJSONSchema(s.config, { unrepresentable: 'any' }) as Record<string, unknown>,
        })),
      },
      200,
    ),
  );
}
