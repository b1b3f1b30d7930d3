// JSON Patch over a guardrail set document `{name, data}` that keeps each item's individual identity:
// field edits, moves and removes keep an item's uuid; a value written whole into `/data/<i>` (add,
// replace, copy) or a rewrite of `/data` or of the document is a new item and gets a new uuid.
import { z } from '@hono/zod-openapi';
import { applyJsonPatch, JsonPatchError, parsePointer, type JsonPatchOperation } from '../../platform/http/json-patch.js';
import { GuardrailItemInput, MAX_ITEMS_PER_SET } from './schemas.js';

const PatchedItem = GuardrailItemInput.extend({ uuid: z.string().optional() }).strict();
const PatchedSet = z.object({ name: z.string().trim().min(1).max(200), data: z.array(PatchedItem).max(MAX_ITEMS_PER_SET) }).strict();
export type PatchedSet = z.infer<typeof PatchedSet>;

interface SetDocument {
  name: string;
  data: Array<Record<string, unknown>>;
}

/** Tokens of a pointer, or [] for the whole document; invalid pointers surface in applyJsonPatch. */
function tokensOf(pointer: string): string[] | null {
  try {
    return parsePointer(pointer);
  } catch {
    return null;
  }
}

const touchesUuid = (pointer: string) => {
  const t = tokensOf(pointer);
  return t !== null && t.length >= 3 && t[0] === 'data' && t[2] === 'uuid';
};

function forgetIdentity(item: unknown): void {
  if (item && typeof item === 'object' && !Array.isArray(item)) delete (item as Record<string, unknown>).uuid;
}

/**
 * Applies `operations` to `document` (items carry their `uuid`) and returns the validated result, in
 * which kept items still carry their uuid and new items carry none. Throws JsonPatchError or a
 * validation message (as JsonPatchError) for anything the set cannot hold.
 */
export function patchSetDocument(document: SetDocument, operations: JsonPatchOperation[]): PatchedSet {
  let doc: unknown = structuredClone(document);
  for (const op of operations) {
    if (op.op !== 'test' && (touchesUuid(op.path) || ('from' in op && op.op === 'move' && touchesUuid(op.from)))) {
      throw new JsonPatchError(`uuid is assigned by the service and cannot be patched (${op.path})`);
    }
    doc = applyJsonPatch(doc, [op]);
    if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'copy' && op.op !== 'move') continue;
    const tokens = tokensOf(op.path) ?? [];
    const data = (doc as Partial<SetDocument> | null)?.data;
    if (tokens.length === 0 || (tokens.length === 1 && tokens[0] === 'data')) {
      // The whole list (or document) was written: every item in it is new.
      if (Array.isArray(data)) data.forEach(forgetIdentity);
    } else if (tokens.length === 2 && tokens[0] === 'data' && op.op !== 'move' && Array.isArray(data)) {
      forgetIdentity(data[tokens[1] === '-' ? data.length - 1 : Number(tokens[1])]);
    }
  }
  const parsed = PatchedSet.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new JsonPatchError(`result is not a valid guardrail set: ${issue.path.join('.') || 'document'}: ${issue.message}`);
  }
  const seen = new Set<string>();
  for (const item of parsed.data.data) {
    if (!item.uuid) continue;
    if (seen.has(item.uuid)) throw new JsonPatchError(`item ${item.uuid} appears twice`);
    seen.add(item.uuid);
  }
  return parsed.data;
}
