// References from a PAL to other areas' resources (guardrails, connectors, documents). Those areas are
// built separately: these functions are the one place where they get wired in. Until then they check
// what can be checked here (shape and counts) and accept the ids as given.
import type { Db } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';

export const GUARDRAILS_PER_PAL = 50;

export interface GuardrailReferences {
  guardrail_ids: string[];
  guardrail_tags: string[];
  guardrails_id: string | null;
}

/**
 * Resolves a PAL's guardrail references to the individual guardrails it gets: the listed ids, every
 * guardrail of the owner carrying one of the tags, and the items of the deprecated set. Throws 400 for
 * unknown ids or sets and when the total passes 50.
 * WIRE (lead): with the guardrails area merged, look up `guardrail_ids` and `guardrails_id` among the
 * owner's guardrails (unknown → badRequest) and add the owner's guardrails matching `guardrail_tags`
 * and the set's items; the count check below then covers all three.
 */
export async function resolveGuardrailReferences(_db: Db, _ownerId: number, refs: GuardrailReferences): Promise<string[]> {
  const resolved = new Set(refs.guardrail_ids);
  if (resolved.size > GUARDRAILS_PER_PAL) throw badRequest(`a PAL may have at most ${GUARDRAILS_PER_PAL} guardrails in total (got ${resolved.size})`);
  return [...resolved];
}

/**
 * Checks the connectors named in `layers.mcp.connectors` (and the keys of `layers.mcp.connector_tools`).
 * WIRE (lead): with the connectors area merged, every id must be a connector of the owner (else badRequest).
 */
export async function validateConnectorReferences(_db: Db, _ownerId: number, connectorIds: string[]): Promise<void> {
  const seen = new Set<string>();
  for (const id of connectorIds) {
    if (seen.has(id)) throw badRequest(`layers.mcp.connectors: connector '${id}' is listed twice`);
    seen.add(id);
  }
}

/**
 * Checks document ids given to a PAL (`document_ids`) or to the presentation skill.
 * WIRE (lead): with the documents area merged, every id must be a document of the owner (else badRequest).
 */
export async function validateDocumentReferences(_db: Db, _ownerId: number, _documentIds: string[], _field: string): Promise<void> {}
