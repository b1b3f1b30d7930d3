// References from a PAL to other areas' resources (guardrails, connectors, documents): the one place
// where PAL validation reaches into those areas.
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { assertConnectorsExist, assertConnectorToolsExist } from '../connectors/validate.js';
import { resolveGuardrails } from '../guardrails/resolve.js';

export interface GuardrailReferences {
  guardrail_ids: string[];
  guardrail_tags: string[];
  guardrails_id: string | null;
}

/**
 * Resolves a PAL's guardrail references to the individual guardrails it gets: the listed ids, every
 * guardrail of the owner carrying one of the tags, and the items of the deprecated set. Throws 400 for
 * unknown ids or sets and when the total passes 50.
 */
export async function resolveGuardrailReferences(db: Db, ownerId: number, refs: GuardrailReferences): Promise<string[]> {
  const resolved = await resolveGuardrails(db, ownerId, {
    guardrail_ids: refs.guardrail_ids,
    guardrail_tags: refs.guardrail_tags,
    ...(refs.guardrails_id ? { guardrails_id: refs.guardrails_id } : {}),
  });
  return resolved.map((g) => g.uuid);
}

/** Checks the connectors named in `layers.mcp.connectors`: each must be one of the owner's. */
export async function validateConnectorReferences(db: Db, ownerId: number, connectorIds: string[]): Promise<void> {
  const seen = new Set<string>();
  for (const id of connectorIds) {
    if (seen.has(id)) throw badRequest(`layers.mcp.connectors: connector '${id}' is listed twice`);
    seen.add(id);
  }
  await assertConnectorsExist(db, ownerId, connectorIds);
}

/**
 * Checks `layers.mcp.connector_tools` ({connector_id: [tool names]}): each key must be a connector the
 * PAL lists in `layers.mcp.connectors` (scoping a connector the PAL does not use means nothing), no
 * name twice, and each name a tool of the connector's last import (a connector never imported is not
 * checked for tools: its tools are not known yet).
 */
export async function validateConnectorTools(
  db: Db,
  ownerId: number,
  connectorIds: string[],
  connectorTools: Record<string, string[]> | undefined,
): Promise<void> {
  if (!connectorTools) return;
  const listed = new Set(connectorIds);
  for (const [id, names] of Object.entries(connectorTools)) {
    if (!listed.has(id))
      throw badRequest(`invalid_request: layers.mcp.connector_tools: connector '${id}' is not listed in layers.mcp.connectors`);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined)
      throw badRequest(`invalid_request: layers.mcp.connector_tools: tool '${dup}' of connector '${id}' is listed twice`);
    if (names.some((n) => !n.trim()))
      throw badRequest(`invalid_request: layers.mcp.connector_tools: connector '${id}' has an empty tool name`);
  }
  await assertConnectorToolsExist(db, ownerId, connectorTools);
}

/** Checks document ids given to a PAL (`document_ids`) or to the presentation skill: each must be one of the owner's. */
export async function validateDocumentReferences(db: Db, ownerId: number, documentIds: string[], field: string): Promise<void> {
  const wanted = [...new Set(documentIds)];
  if (wanted.length === 0) return;
  const rows = await db
    .selectFrom('documents')
    .select('document_id')
    .where('owner_id', '=', ownerId)
    .where('document_id', 'in', wanted)
    .execute();
  const found = new Set(rows.map((r) => r.document_id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) throw badRequest(`invalid_request: ${field}: unknown document ${missing.join(', ')}`);
}
