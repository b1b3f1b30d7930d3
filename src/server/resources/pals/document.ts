// The PAL document: the body of a create (either path, either naming) or the result of a JSON Patch,
// checked as a whole and normalised to the one stored form (canonical names, defaults filled, keys
// sealed). The live PAL reads this stored `definition`.
import { sql } from 'kysely';
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest, conflict } from '../../platform/http/errors.js';
import { canonicalLanguage, unsupportedLanguageMessage } from './languages.js';
import {
  resolveGuardrailReferences,
  validateConnectorReferences,
  validateConnectorTools,
  validateDocumentReferences,
} from './references.js';
import { sealLayerSecrets } from './layer-secrets.js';
import { dailyRunnerRefusal } from './daily-runner.js';
import type { PalInput } from './schemas.js';

export type PalPath = 'pals' | 'personas';

export interface PalDocument {
  pal_name: string;
  system_prompt: string | null;
  pipeline_mode: 'full' | 'echo';
  default_face_id: string | null;
  custom_greeting: string | null;
  context: string | null;
  languages: string[];
  document_ids: string[];
  document_tags: string[];
  objectives_id: string | null;
  guardrail_ids: string[];
  guardrail_tags: string[];
  guardrails_id: string | null;
  disclosure_type: 'always' | 'auto' | 'off';
  verbal_disclosure: string | null;
  visual_disclosure: string | null;
  layers: Record<string, unknown>;
}

function alias<T>(a: T | null | undefined, b: T | null | undefined, names: string): T | null {
  if (a != null && b != null && a !== b) throw badRequest(`${names} name the same field and disagree`);
  return a ?? b ?? null;
}

const unique = <T>(values: T[]) => [...new Set(values)];

export interface NormaliseContext {
  deps: ServiceDeps;
  /** The transaction the PAL is written in (the face is locked FOR SHARE in it). */
  db: Db;
  ownerId: number;
  path: PalPath;
  /** The stored document when patching (masked keys are kept from it). */
  previous?: PalDocument;
  /** The PAL being changed (excluded from the conferencing username check). */
  palId?: string;
}

export async function normalisePal(input: PalInput, ctx: NormaliseContext): Promise<PalDocument> {
  const palName = alias(input.pal_name, input.persona_name, 'pal_name and persona_name');
  const faceId = alias(input.default_face_id, input.default_replica_id, 'default_face_id and default_replica_id');
  const pipelineMode = input.pipeline_mode ?? 'full';
  const layers = input.layers ?? {};
  const facesName = ctx.path === 'pals' ? 'default_face_id' : 'default_replica_id';

  if (!palName) throw badRequest(`invalid_request: ${ctx.path === 'pals' ? 'pal_name' : 'persona_name'}: Required`);
  if (pipelineMode !== 'echo' && !input.system_prompt?.trim())
    throw badRequest('invalid_request: system_prompt: Required unless pipeline_mode is echo');
  if (ctx.path === 'pals' && !faceId) throw badRequest('invalid_request: default_face_id: Required');
  if (layers.conferencing && !faceId) throw badRequest(`invalid_request: layers.conferencing needs a face: set ${facesName}`);
  const runnerRefusal = dailyRunnerRefusal(ctx.deps.config, layers.daily?.runner ?? null);
  if (runnerRefusal) throw badRequest(`invalid_request: layers.daily.runner: ${runnerRefusal}`);

  if (faceId) {
    // The caller's own faces, and the built-in (system) faces every owner may use.
    const face = await ctx.db
      .selectFrom('faces')
      .select('face_id')
      .where('face_id', '=', faceId)
      .where((eb) => eb.or([eb('owner_id', '=', ctx.ownerId), eb('face_type', '=', 'system')]))
      .forShare()
      .executeTakeFirst();
    if (!face) throw badRequest(`Unknown face '${faceId}'`);
  }

  const languages: string[] = [];
  for (const tag of input.languages ?? []) {
    const canonical = canonicalLanguage(tag);
    if (!canonical) throw badRequest(unsupportedLanguageMessage('languages', tag));
    languages.push(canonical);
  }

  const guardrails = {
    guardrail_ids: unique(input.guardrail_ids ?? []),
    guardrail_tags: unique(input.guardrail_tags ?? []),
    guardrails_id: input.guardrails_id ?? null,
  };
  await resolveGuardrailReferences(ctx.db, ctx.ownerId, guardrails);
  const documentIds = unique(input.document_ids ?? []);
  await validateDocumentReferences(ctx.db, ctx.ownerId, documentIds, 'document_ids');
  await validateConnectorReferences(ctx.db, ctx.ownerId, layers.mcp?.connectors ?? []);
  if (input.objectives_id != null) {
    const objectives = await ctx.db
      .selectFrom('objectives')
      .select('objectives_id')
      .where('objectives_id', '=', input.objectives_id)
      .where('owner_id', '=', ctx.ownerId)
      .executeTakeFirst();
    if (!objectives) throw badRequest(`invalid_request: objectives_id: objectives ${input.objectives_id} not found`);
  }
  await validateConnectorTools(ctx.db, ctx.ownerId, layers.mcp?.connectors ?? [], layers.mcp?.connector_tools);

  const username = layers.conferencing?.username;
  if (username) {
    let q = ctx.db
      .selectFrom('pals')
      .select('pal_id')
      .where(sql<string>`definition->'layers'->'conferencing'->>'username'`, '=', username);
    if (ctx.palId) q = q.where('pal_id', '<>', ctx.palId);
    if (await q.executeTakeFirst()) throw conflict(`the conferencing username '${username}' is taken`);
  }

  return {
    pal_name: palName,
    system_prompt: input.system_prompt ?? null,
    pipeline_mode: pipelineMode,
    default_face_id: faceId,
    custom_greeting: input.custom_greeting ?? null,
    context: input.context ?? null,
    languages: unique(languages),
    document_ids: documentIds,
    document_tags: unique(input.document_tags ?? []),
    objectives_id: input.objectives_id ?? null,
    ...guardrails,
    disclosure_type: input.disclosure_type ?? 'auto',
    verbal_disclosure: input.verbal_disclosure ?? null,
    visual_disclosure: input.visual_disclosure ?? null,
    layers: sealLayerSecrets(layers as Record<string, unknown>, ctx.previous?.layers, ctx.deps.secrets),
  };
}

/** `{layers.conferencing.username}@{invite domain}` when conferencing is configured. */
export function conferencingEmail(doc: PalDocument, inviteDomain: string): string | undefined {
  const username = (doc.layers.conferencing as { username?: string } | undefined)?.username;
  return username ? `${username}@${inviteDomain}` : undefined;
}
