// PATCH /v2/deployments/{id}: an RFC 6902 patch applied to the deployment document as GET shows it.
// Read-only fields cannot be changed; `/password` is write-only (set with add/replace, cleared with
// remove or null); the result must be a valid deployment.
import { z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { badRequest, describeZodError } from '../../platform/http/errors.js';
import { applyJsonPatch, JsonPatchError, parsePointer, type JsonPatchOperation } from '../../platform/http/json-patch.js';
import type { DeploymentView } from './repository.js';
import { AllowedOrigins, CallbackUrl, Channel, Customization, DeploymentStatus, Limits, Password, VisitorTokenSecret } from './schemas.js';

const READ_ONLY = [
  'deployment_id',
  'has_password',
  'has_visitor_token_secret',
  'thumbnail_video_url',
  'thumbnail_image_url',
  'usage_total',
  'usage_today',
  'created_at',
  'updated_at',
] as const;

const Writable = z
  .object({
    pal_id: z.string().min(1).max(64),
    channel: Channel,
    status: DeploymentStatus,
    name: z.string().max(200),
    customization: Customization,
    limits: Limits,
    allowed_origins: AllowedOrigins,
    callback_url: CallbackUrl.nullable(),
  })
  .strict();
export type WritableDeployment = z.infer<typeof Writable>;

export interface PatchPlan {
  fields: WritableDeployment;
  /** undefined: unchanged; null: cleared; string: the new password. */
  password: string | null | undefined;
  /** The same for the visitor tokens' secret. */
  visitorTokenSecret: string | null | undefined;
}

/** A write-only field's operation: set (add/replace), cleared (remove or null). */
function writeOnly(op: JsonPatchOperation, field: string, schema: z.ZodType<string | null>, rule: string): string | null {
  if (op.path !== `/${field}` || 'from' in op)
    throw badRequest(`invalid_patch: /${field} can only be set (add/replace) or cleared (remove)`);
  if (op.op === 'remove') return null;
  if (op.op !== 'add' && op.op !== 'replace') throw badRequest(`invalid_patch: /${field} is write-only`);
  const parsed = schema.safeParse(op.value);
  if (!parsed.success) throw badRequest(`invalid_request: ${field}: ${rule}`);
  return parsed.data;
}

function topField(pointer: string): string {
  try {
    return parsePointer(pointer)[0] ?? '';
  } catch (error) {
    throw badRequest(`invalid_patch: ${(error as Error).message}`);
  }
}

export function planPatch(view: DeploymentView, operations: JsonPatchOperation[]): PatchPlan {
  let password: string | null | undefined;
  let visitorTokenSecret: string | null | undefined;
  const rest: JsonPatchOperation[] = [];
  for (const op of operations) {
    const targets = [op.path, ...('from' in op ? [op.from] : [])];
    if (targets.some((p) => p === '')) throw badRequest('invalid_patch: the whole deployment cannot be replaced; patch its fields');
    const fields = targets.map(topField);
    if (fields.includes('password')) {
      password = writeOnly(op, 'password', Password.nullable(), 'must be a string of 1 to 256 characters, or null');
      continue;
    }
    if (fields.includes('visitor_token_secret')) {
      visitorTokenSecret = writeOnly(
        op,
        'visitor_token_secret',
        VisitorTokenSecret.nullable(),
        'must be a string of 32 to 512 characters, or null',
      );
      continue;
    }
    const readOnly = op.op === 'test' ? undefined : fields.find((f) => (READ_ONLY as readonly string[]).includes(f));
    // `move` and `copy` read `from` without changing it, but `move` removes it.
    if (readOnly && !(op.op === 'copy' && fields[0] !== readOnly)) throw badRequest(`invalid_patch: /${readOnly} is read-only`);
    rest.push(op);
  }

  let doc: Record<string, unknown>;
  try {
    doc = applyJsonPatch(view as unknown as Record<string, unknown>, rest);
  } catch (error) {
    if (error instanceof JsonPatchError) throw badRequest(`invalid_patch: ${error.message}`);
    throw error;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw badRequest('invalid_patch: the result is not an object');
  for (const field of READ_ONLY)
    if (JSON.stringify(doc[field]) !== JSON.stringify(view[field])) throw badRequest(`invalid_patch: /${field} is read-only`);
  const writable = Object.fromEntries(Object.entries(doc).filter(([k]) => !(READ_ONLY as readonly string[]).includes(k)));
  const parsed = Writable.safeParse(writable);
  if (!parsed.success) throw badRequest(describeZodError(parsed.error as ZodError));
  return { fields: parsed.data, password, visitorTokenSecret };
}

/** Does `If-Match` (a list of ETags, or *) name the current version? */
export function ifMatchHolds(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  return header
    .split(',')
    .map((s) => s.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}
