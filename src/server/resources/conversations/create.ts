// The one way a conversation comes to exist, used by POST /v2/conversations and by the public
// deployment start, in three steps: plan the row from the PAL and face (each problem a 400), write it
// (the caller's way: the deployment start writes it together with the deployment's usage count), then
// open the room with the conferencing provider.
import type { Insertable } from 'kysely';
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isoMillis } from '../../platform/time.js';
import { faceMediaLink } from '../faces/media-url.js';
import { conferencingProvider, ProviderError, recordingRefusal, type ConferencingProvider } from '../../providers/conferencing/index.js';
import { canonicalLanguage, unsupportedLanguageMessage } from '../pals/languages.js';
import { checkFace, resolvePalAndFace, type PalAndFace } from './repository.js';
import { dailyCallStart, PalRunnerMissingError, RunnerBusyError } from './daily-call-start.js';
import type { ConversationProperties } from './schemas.js';

export const DEFAULT_MAX_CALL_DURATION = 3600;
/** Token and room outlive the call a little so a visitor can reconnect near the end. */
export const ROOM_MARGIN_SECONDS = 300;

export interface CreateConversationInput {
  ownerId: number;
  palId: string;
  faceId?: string | undefined;
  /** Field names used in error messages (`persona_id`/`replica_id` on the legacy names). */
  palField?: string;
  faceField?: string;
  deploymentId?: string | null;
  conversationName?: string | undefined;
  callbackUrl?: string | null | undefined;
  conversationalContext?: string | null | undefined;
  customGreeting?: string | null | undefined;
  memoryStores?: string[] | undefined;
  properties?: ConversationProperties | undefined;
  /** Hash of the visitor's address (deployment starts). */
  visitorKey?: string | null;
}

export interface CreatedConversation {
  conversation_id: string;
  conversation_name: string;
  conversation_url: string;
  status: 'active';
  callback_url?: string;
  created_at: string;
  meeting_token: string;
  /** A local room's trained face: its rig.json, so the page fetches it while it joins (issue 32). */
  face_rig_url?: string;
}

export type ConversationInsert = Insertable<Database['conversations']> & {
  conversation_id: string;
  conversation_name: string;
  created_at: Date;
};

/** A conversation ready to be written: its row, and what opening its room needs. */
export interface PlannedConversation {
  row: ConversationInsert;
  properties: ConversationProperties & { max_call_duration: number };
  expiresAt: Date;
  provider: ConferencingProvider;
  /** The conversation_url written with the row (the provider's final one for local rooms). */
  plannedUrl: string | null;
  /** The PAL and face it was planned with. */
  palAndFace: UsablePalAndFace;
}

export type UsablePalAndFace = PalAndFace & { face: NonNullable<PalAndFace['face']> };

/** POST /v2/conversations: the caller's PAL and face, the row, the room. */
export async function createConversation(deps: ServiceDeps, input: CreateConversationInput): Promise<CreatedConversation> {
  const planned = planConversation(deps, input, await resolvePalAndFace(deps.db, input.ownerId, input.palId, input.faceId));
  await checkRecordingDestination(deps.db, input.ownerId, planned.properties);
  await deps.db.insertInto('conversations').values(planned.row).execute();
  return openConversationRoom(deps, planned);
}

/** Checks the PAL and face it would use (400 for each problem) and lays out the conversation's row. */
export function planConversation(deps: ServiceDeps, input: CreateConversationInput, resolved: PalAndFace | null): PlannedConversation {
  if (!resolved) throw badRequest(`invalid_request: ${input.palField ?? 'pal_id'}: PAL ${input.palId} not found`);
  const { pal, face } = resolved;
  if (!face) throw badRequest(`invalid_request: ${input.faceField ?? 'face_id'}: PAL ${pal.pal_id} has no default face; give a face_id`);
  checkFace(face, face.wanted, input.ownerId, input.faceId ? (input.faceField ?? 'face_id') : 'default_face_id');

  const provider = conferencingProvider(deps);
  checkSpeakable(input.properties);
  // Daily rooms are not recorded by this service (its recorder listens in local rooms): saying yes and
  // recording nothing would be a silent lie, so the request is refused.
  const cannotRecord = input.properties?.enable_recording === true ? recordingRefusal(provider, 'properties.enable_recording') : null;
  if (cannotRecord) throw badRequest(cannotRecord);
  const conversationId = newId('c');
  const now = deps.clock.now();
  const properties = { ...input.properties, max_call_duration: input.properties?.max_call_duration ?? DEFAULT_MAX_CALL_DURATION };
  const expiresAt = new Date(now.getTime() + (properties.max_call_duration + ROOM_MARGIN_SECONDS) * 1000);
  const plannedUrl = provider.plannedUrl(conversationId);
  const row: ConversationInsert = {
    conversation_id: conversationId,
    owner_id: input.ownerId,
    pal_id: pal.pal_id,
    face_id: face.wanted,
    deployment_id: input.deploymentId ?? null,
    conversation_name: input.conversationName ?? `Conversation with ${pal.pal_name}`,
    provider: provider.name,
    conversation_url: plannedUrl ?? '',
    callback_url: input.callbackUrl ?? null,
    conversational_context: input.conversationalContext ?? null,
    custom_greeting: input.customGreeting ?? null,
    memory_stores: JSON.stringify(input.memoryStores ?? []),
    properties: JSON.stringify(properties),
    visitor_key: input.visitorKey ?? null,
    expires_at: expiresAt,
    created_at: now,
    updated_at: now,
  };
  return { row, properties, expiresAt, provider, plannedUrl, palAndFace: { pal, face } };
}

/** The conversation's own languages must be ones the PAL can speak (400 listing those it can). */
function checkSpeakable(properties: ConversationProperties | undefined): void {
  for (const tag of properties?.languages ?? [])
    if (!canonicalLanguage(tag)) throw badRequest(unsupportedLanguageMessage('properties.languages', tag));
}

/** A recording destination named in the properties must be the owner's, with recording on (400 otherwise). */
export async function checkRecordingDestination(db: Db, ownerId: number, properties: ConversationProperties): Promise<void> {
  const destinationId = properties.recording_destination_id;
  if (destinationId === undefined) return;
  const destination = await db
    .selectFrom('recording_destinations')
    .select('owner_id')
    .where('destination_id', '=', destinationId)
    .executeTakeFirst();
  if (!destination || destination.owner_id !== ownerId)
    throw badRequest(`invalid_request: properties.recording_destination_id: recording destination ${destinationId} not found`);
  if (properties.enable_recording !== true)
    throw badRequest('invalid_request: properties.recording_destination_id: set enable_recording to true to record the call');
}

/** Opens the room of a written conversation; when that fails the conversation is withdrawn. */
export async function openConversationRoom(deps: ServiceDeps, planned: PlannedConversation): Promise<CreatedConversation> {
  const { db } = deps;
  const { row, provider, expiresAt, properties } = planned;
  const conversationId = row.conversation_id;
  let room;
  try {
    room = await provider.open({ conversationId, expiresAt, properties });
  } catch (error) {
    await withdraw(db, conversationId, row.deployment_id ?? null);
    if (error instanceof ProviderError) deps.log.error('conferencing provider failed', { provider: provider.name, error: error.message });
    throw error;
  }
  // Local rooms are where they were planned: the row already has the final address.
  if (room.conversationUrl !== planned.plannedUrl || room.room) {
    await db
      .updateTable('conversations')
      .set({ conversation_url: room.conversationUrl, provider_room: room.room })
      .where('conversation_id', '=', conversationId)
      .execute();
  }
  // A Daily room: its deadlines and its PAL (live/runner/start-daily-call.ts); a refusal throws PalUnavailableError.
  if (provider.name === 'daily') {
    try {
      await dailyCallStart(deps)(deps, {
        conversationId,
        room: { url: room.conversationUrl, name: room.room ?? null },
        properties,
        createdAt: row.created_at as Date,
        expiresAt,
      });
    } catch (error) {
      // No PAL can take the call now: the conversation never was, and Daily's room goes with it.
      if (error instanceof RunnerBusyError || error instanceof PalRunnerMissingError) {
        if (error instanceof PalRunnerMissingError)
          deps.log.error('no runner for the PAL in its Daily room', { conversation_id: conversationId, error: error.message });
        await withdraw(db, conversationId, row.deployment_id ?? null);
        await provider.close({ conversationId, room: room.room }).catch(() => undefined);
      }
      throw error;
    }
  }
  return {
    conversation_id: conversationId,
    conversation_name: row.conversation_name,
    conversation_url: room.conversationUrl,
    status: 'active',
    // A string field of the spec's shape: omitted when no callback address was given, never null.
    ...(row.callback_url ? { callback_url: row.callback_url } : {}),
    created_at: isoMillis(row.created_at),
    meeting_token: room.meetingToken,
    ...rigOf(deps, provider.name, planned),
  };
}

/**
 * A local room's trained face is drawn by the page: the answer names its rig, so that it loads while the page
 * joins, with a token bound to this conversation (it ends with the call).
 */
function rigOf(deps: ServiceDeps, provider: string, planned: PlannedConversation): { face_rig_url?: string } {
  const { face } = planned.palAndFace;
  const rig = face.rig_url;
  if (provider !== 'local' || !rig) return {};
  const link = face.face_id
    ? { secrets: deps.secrets, faceId: face.face_id, grant: { conversationId: planned.row.conversation_id }, expiresAt: planned.expiresAt }
    : null;
  return { face_rig_url: faceMediaLink(deps.config.publicUrl, rig, link) ?? rig };
}

/** The room could not be opened: the conversation never existed, and it gives its deployment slot back. */
async function withdraw(db: Db, conversationId: string, deploymentId: string | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('conversations').where('conversation_id', '=', conversationId).execute();
    if (deploymentId) {
      await trx
        .updateTable('deployments')
        .set((eb) => ({ usage_total: eb('usage_total', '-', 1) }))
        .where('deployment_id', '=', deploymentId)
        .where('usage_total', '>', 0)
        .execute();
    }
  });
}
