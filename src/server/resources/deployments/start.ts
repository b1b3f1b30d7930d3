// POST /v2/deployments/{id}/start: the public path from a visitor's browser to a conversation. Each
// check has its own stable error string and they run in a fixed order (the address's start rate, the gate:
// captcha then password, the never-joined cap: front-door.ts); the limits are checked
// under the deployment's row lock, in the same write as the conversation (start-write.ts).
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/http/app-env.js';
import { ownerForKey } from '../../platform/http/auth.js';
import { ApiError } from '../../platform/http/errors.js';
import {
  checkRecordingDestination,
  openConversationRoom,
  planConversation,
  type CreatedConversation,
  type PlannedConversation,
} from '../conversations/create.js';
import { resolvePalAndFace } from '../conversations/repository.js';
import { namesOwnStoreId } from '../memory-stores/repository.js';
import { clientAddress, clientKey } from './client-address.js';
import { originMayStart } from './cors.js';
import { checkStartRate, checkUnjoined, unjoinedCap } from './front-door.js';
import { gatePassValid, passGate } from './gate.js';
import { refuse } from './refusals.js';
import { findDeployment, findStartableDeployment, type DeploymentRow, type StartableDeployment } from './repository.js';
import { startCacheFor } from './start-cache.js';
import type { Customization, Limits, StartDeployment } from './schemas.js';
import type { ConversationProperties } from '../conversations/schemas.js';
import { writeStart } from './start-write.js';
import { visitorMemoryStores } from './visitor-token.js';

const MEMORY_STORE_ID = /^m[a-z0-9]{1,63}$/;

/** The deployment a visitor may start (or pass the gate of) from this page, or its refusal. */
export async function startableDeployment(c: Context<AppEnv>, deploymentId: string): Promise<DeploymentRow> {
  return checkStartable(c, await findDeployment(c.get('deps').db, deploymentId));
}

function checkStartable<Row extends Pick<DeploymentRow, 'status' | 'channel' | 'allowed_origins'>>(
  c: Context<AppEnv>,
  row: Row | undefined,
): Row {
  if (!row) throw refuse('deployment_not_found');
  if (row.status !== 'active') throw refuse('deployment_inactive');
  if ((row.channel === 'widget' || row.channel === 'embed') && !originMayStart(row, c.req.header('origin'), c.get('deps').config.publicUrl))
    throw refuse('origin_not_allowed');
  return row;
}

export async function startDeployment(
  c: Context<AppEnv>,
  deploymentId: string,
  body: z.infer<typeof StartDeployment>,
): Promise<CreatedConversation> {
  const deps = c.get('deps');
  const cache = startCacheFor(deps);
  // A deployment kept from an earlier start saves this one the read; a preview names another PAL.
  const kept = body.pal_id === undefined ? cache.get(deploymentId) : undefined;
  if (kept) {
    // A refusal made on the kept copy, or a change since it was kept, is decided again on a fresh read;
    // nothing was written then. (Other errors, from the database, are not retried.)
    const written = await writeConversation(c, kept, body, true).catch((error: unknown) => {
      if (error instanceof ApiError) return null;
      throw error;
    });
    if (written) return openConversationRoom(deps, written);
  }
  // The deployment with its PAL and face, in one read; the write re-checks what it relies on.
  const row = await findStartableDeployment(deps.db, deploymentId);
  cache.offer(deploymentId, row);
  return openConversationRoom(deps, (await writeConversation(c, row, body, false))!);
}

/**
 * The checks in their order and the conversation's write. Null, with nothing written, when a kept
 * deployment cannot be relied on.
 */
async function writeConversation(
  c: Context<AppEnv>,
  found: StartableDeployment | undefined,
  body: z.infer<typeof StartDeployment>,
  kept: boolean,
): Promise<PlannedConversation | null> {
  const deps = c.get('deps');
  const { db, clock } = deps;
  const row = checkStartable(c, found);
  const limits = row.limits as Limits;
  const visitor = clientKey(c, clientAddress(c));
  // The front door first, so that a flood of starts costs neither a captcha check nor a database read.
  checkStartRate(c, row.deployment_id, limits, visitor, body.visitor_key);
  // The captcha, then the password, unless the visitor already passed them at the gate.
  if (!(body.gate_pass && gatePassValid(deps.secrets, row, body.gate_pass, clock.now()))) await passGate(c, row, body);
  await checkUnjoined(db, row.deployment_id, unjoinedCap(limits, deps), clock.now(), visitor);
  const customization = row.customization as z.infer<typeof Customization> | null;
  const consent = consentFor(customization, body.accepted_terms);

  // Read before the write; refused only once the limits have passed (the documented order).
  // memory_stores are visitor identifiers; only one naming this owner's store by id (and no visitor's
  // participant tag) is refused, so other accounts' store ids are neither revealed nor in the way.
  const storeLike = (body.memory_stores ?? []).filter((v) => MEMORY_STORE_ID.test(v));
  const namesStore = await namesOwnStoreId(db, row.owner_id, storeLike);

  let palId = row.pal_id;
  let palAndFace = row.palAndFace;
  const key = c.req.header('x-api-key');
  const byOwner = key !== undefined && (await ownerForKey(db, key)) === row.owner_id;
  // Whose memories this start may reach: only identifiers the site vouches for (visitor-token.ts).
  const memoryStores = await visitorMemoryStores(deps, {
    deploymentId: row.deployment_id,
    secretEncrypted: row.visitor_token_secret_encrypted,
    memoryStores: body.memory_stores,
    visitorToken: body.visitor_token,
    byOwner,
  });
  if (body.pal_id !== undefined) {
    if (!byOwner) throw refuse('preview_requires_owner_key');
    palId = body.pal_id;
    palAndFace = await resolvePalAndFace(db, row.owner_id, palId, undefined);
  }

  const planned = planConversation(
    deps,
    {
      ownerId: row.owner_id,
      palId,
      deploymentId: row.deployment_id,
      callbackUrl: row.callback_url ?? undefined,
      conversationalContext: body.conversational_context,
      customGreeting: body.custom_greeting,
      memoryStores,
      properties: callProperties(limits, customization),
      visitorKey: visitor,
    },
    palAndFace,
  );
  await checkRecordingDestination(db, row.owner_id, planned.properties);
  const written = await writeStart(db, clock, {
    deployment: row,
    kept,
    conversation: planned.row,
    palAndFace: planned.palAndFace,
    visitorKey: visitor,
    consent,
    refusalAfterLimits: namesStore
      ? refuse('invalid_request', 'memory_stores: give stable visitor identifiers; a memory_store_id is not accepted here')
      : null,
  });
  return written ? planned : null;
}

/**
 * The terms a deployment requires the visitor to accept, refused unless the visitor accepted exactly
 * these (terms changed since the page loaded them are shown again); null when none are required.
 */
function consentFor(
  customization: z.infer<typeof Customization> | null,
  accepted: string | undefined,
): { text: string; termsUrl: string | null } | null {
  const consent = customization?.consent;
  if (consent?.required !== true) return null;
  const text = consent.text ?? '';
  if (accepted === undefined) throw refuse('consent_required');
  if (accepted !== text) throw refuse('consent_required', 'the terms changed; show them again');
  return { text, termsUrl: consent.terms_url ?? null };
}

/** The conversation properties a deployment sets: its disclosure policy, recording and limits (the room applies its defaults to the rest). */
function callProperties(
  limits: Limits,
  customization: z.infer<typeof Customization> | null | undefined,
): ConversationProperties | undefined {
  const recording = customization?.recording;
  const properties = {
    ...(customization?.policy === 'eu' ? { policy: 'eu' as const } : {}),
    ...(recording?.enabled === true
      ? { enable_recording: true, ...(recording.destination_id ? { recording_destination_id: recording.destination_id } : {}) }
      : {}),
    ...(limits.max_call_duration != null ? { max_call_duration: limits.max_call_duration } : {}),
    ...(limits.participant_left_timeout != null ? { participant_left_timeout: limits.participant_left_timeout } : {}),
  };
  return Object.keys(properties).length ? properties : undefined;
}
