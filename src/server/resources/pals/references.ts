// References from a PAL to other areas' resources (guardrails, connectors, documents): the one place
// where PAL validation reaches into those areas.
import type { Db } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import { assertConnectorsExist } from '../connectors/validate.js';
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

/** Checks document ids given to a PAL (`document_ids`) or to the presentation skill: each must be one of the owner's. */
export async function validateDocumentReferences(db: Db, ownerId: number, documentIds: string[], field: string): Promise<void> {
  const wanted = [...new Set(documentIds)];
  if (wanted.length === 0) return;
  const rows = await db.selectFrom('documents').select('document_id').where('owner_id', '=', ownerId).where('document_id', 'in', wanted).execute();
  const found = new Set(rows.map((r) => r.document_id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) throw badRequest(`invalid_request: ${field}: unknown document ${missing.join(', ')}`);
}
