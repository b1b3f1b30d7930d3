// What a conversation's objectives have captured. An objective completes when every one of its output
// variables has a value. Values arrive through the keyed capture endpoint (the caller's backend reports
// them) and, in a live conversation with a model, from the model's record_objective_values function and
// from tool results that carry a variable by name (live/agent/objectives.ts). On completion
// the objective's callback_url receives {conversation_id, objective_name, output_variables}, once.
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { ObjectiveItem } from '../../platform/db/tables/objectives.js';

export interface Progress {
  objective_name: string;
  output_variables: Record<string, unknown>;
  completed: boolean;
}

/** The objectives attached to the conversation's PAL (through objectives_id), or [] when none. */
export async function attached(db: Db, conversationId: string): Promise<{ ownerId: number; items: ObjectiveItem[] } | null> {
  const row = await db
    .selectFrom('conversations as c')
    .leftJoin('pals as p', 'p.pal_id', 'c.pal_id')
    .select(['c.owner_id', 'p.definition'])
    .where('c.conversation_id', '=', conversationId)
    .executeTakeFirst();
  if (!row) return null;
  const objectivesId = (row.definition as Record<string, unknown> | null)?.objectives_id;
  if (typeof objectivesId !== 'string') return { ownerId: row.owner_id, items: [] };
  const objectives = await db
    .selectFrom('objectives')
    .select('data')
    .where('objectives_id', '=', objectivesId)
    .where('owner_id', '=', row.owner_id)
    .executeTakeFirst();
  return { ownerId: row.owner_id, items: objectives?.data ?? [] };
}

export async function objectiveProgress(db: Db, conversationId: string): Promise<Progress[]> {
  const found = await attached(db, conversationId);
  if (!found) return [];
  const rows = await db.selectFrom('conversation_objectives').selectAll().where('conversation_id', '=', conversationId).execute();
  const byName = new Map(rows.map((r) => [r.objective_name, r]));
  return found.items.map((o) => ({
    objective_name: o.objective_name,
    output_variables: byName.get(o.objective_name)?.output_variables ?? {},
    completed: Boolean(byName.get(o.objective_name)?.completed_at),
  }));
}

/**
 * Records captured values for the objectives that declare them (other names are ignored) and completes
 * the objectives whose variables are now all captured. A completed objective keeps its values.
 */
export async function captureObjectiveVariables(
  deps: ServiceDeps,
  conversationId: string,
  variables: Record<string, unknown>,
): Promise<Progress[]> {
  const found = await attached(deps.db, conversationId);
  if (!found) return [];
  await deps.db.transaction().execute(async (trx) => {
    for (const objective of found.items) {
      const mine = Object.fromEntries(
        Object.entries(variables).filter(([k, v]) => objective.output_variables.includes(k) && v !== undefined && v !== null),
      );
      if (Object.keys(mine).length === 0) continue;
      await trx
        .insertInto('conversation_objectives')
        .values({ conversation_id: conversationId, objective_name: objective.objective_name, output_variables: '{}', completed_at: null })
        .onConflict((oc) => oc.columns(['conversation_id', 'objective_name']).doNothing())
        .execute();
      const row = await trx
        .selectFrom('conversation_objectives')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .where('objective_name', '=', objective.objective_name)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (row.completed_at) continue;
      const merged = { ...row.output_variables, ...mine };
      const complete = objective.output_variables.every((name) => name in merged);
      await trx
        .updateTable('conversation_objectives')
        .set({ output_variables: JSON.stringify(merged), completed_at: complete ? deps.clock.now() : null })
        .where('conversation_id', '=', conversationId)
        .where('objective_name', '=', objective.objective_name)
        .execute();
      if (complete && objective.callback_url) {
        const output = Object.fromEntries(objective.output_variables.map((name) => [name, merged[name]]));
        await deps.webhooks.send({
          ownerId: found.ownerId,
          url: objective.callback_url,
          eventType: 'objective.completed',
          bodies: [{ conversation_id: conversationId, objective_name: objective.objective_name, output_variables: output }],
          db: trx,
        });
      }
    }
  });
  return objectiveProgress(deps.db, conversationId);
}
