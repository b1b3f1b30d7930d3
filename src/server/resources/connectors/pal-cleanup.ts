// Keeps PALs consistent when a connector is deleted: its id leaves `layers.mcp.connectors` and its
// entry leaves `layers.mcp.connector_tools` (keyed by connector id, or a list of {connector_id, …}).
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export async function detachConnectorFromPals(db: Db, ownerId: number, connectorId: string, now: Date): Promise<number> {
  const pals = await db
    .selectFrom('pals')
    .select(['pal_id', 'definition'])
    .where('owner_id', '=', ownerId)
    .where(sql<boolean>`position(${connectorId} in (definition->'layers'->'mcp')::text) > 0`)
    .forUpdate()
    .execute();
  let changed = 0;
  for (const pal of pals) {
    const definition = structuredClone(pal.definition) as { layers?: { mcp?: Record<string, unknown> } };
    const mcp = definition.layers?.mcp;
    if (!mcp) continue;
    if (Array.isArray(mcp.connectors)) mcp.connectors = mcp.connectors.filter((id) => id !== connectorId);
    const scoped = mcp.connector_tools;
    if (Array.isArray(scoped))
      mcp.connector_tools = scoped.filter(
        (e) => !(e && typeof e === 'object' && (e as { connector_id?: unknown }).connector_id === connectorId),
      );
    else if (scoped && typeof scoped === 'object') delete (scoped as Record<string, unknown>)[connectorId];
    await db
      .updateTable('pals')
      .set({ definition: JSON.stringify(definition), updated_at: now })
      .where('pal_id', '=', pal.pal_id)
      .execute();
    changed++;
  }
  return changed;
}
