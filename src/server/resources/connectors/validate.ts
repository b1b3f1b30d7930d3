// Checks for PAL creation: the connectors a PAL names in layers.mcp.connectors, and the tools it scopes
// in layers.mcp.connector_tools, must exist for the caller.
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';

/** 400 when any id is not one of the owner's connectors; `field` names the PAL field in the error. */
export async function assertConnectorsExist(
  db: Db,
  ownerId: number,
  ids: readonly string[],
  field = 'layers.mcp.connectors',
): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const rows = await db
    .selectFrom('connectors')
    .select('connector_id')
    .where('owner_id', '=', ownerId)
    .where('connector_id', 'in', wanted)
    .execute();
  const found = new Set(rows.map((r) => r.connector_id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) throw badRequest(`invalid_request: ${field}: unknown connector ${missing.join(', ')}`);
}

/**
 * 400 when `connectorTools` ({connector_id: [tool names]}) names an unknown connector, or a tool that
 * the connector's last import did not list (a connector never imported is not checked for tools).
 */
export async function assertConnectorToolsExist(
  db: Db,
  ownerId: number,
  connectorTools: Readonly<Record<string, readonly string[]>>,
): Promise<void> {
  const ids = Object.keys(connectorTools);
  await assertConnectorsExist(db, ownerId, ids, 'layers.mcp.connector_tools');
  if (ids.length === 0) return;
  const indexed = await db
    .selectFrom('connectors')
    .select('connector_id')
    .where('connector_id', 'in', ids)
    .where('last_indexed_at', 'is not', null)
    .execute();
  if (indexed.length === 0) return;
  const tools = await db
    .selectFrom('connector_tools')
    .select(['connector_id', 'name'])
    .where(
      'connector_id',
      'in',
      indexed.map((r) => r.connector_id),
    )
    .execute();
  const known = new Set(tools.map((t) => `${t.connector_id}\u0000${t.name}`));
  for (const { connector_id } of indexed) {
    const unknown = (connectorTools[connector_id] ?? []).filter((name) => !known.has(`${connector_id}\u0000${name}`));
    if (unknown.length)
      throw badRequest(`invalid_request: layers.mcp.connector_tools: connector ${connector_id} has no tool ${unknown.join(', ')}`);
  }
}
