// The one way a conversation comes to exist, used by POST /v2/conversations and by the public
// deployment start: resolve PAL and face, write the row (inside the caller's guard transaction, so
// deployment limits and the insert are atomic), then open the room with the conferencing provider.
import type { ServiceDeps } from '../../context.js';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { isoMillis } from '../../time.js';
import { conferencingProvider, ProviderError } from './providers/index.js';
import { checkFace, resolvePalAndFace } from './repository.js';
import { handOffToRunner } from './runner/handoff.js';
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
  /**
   * Runs in the insert transaction last, after the row is written, so that a row lock it takes is held
   * only until the commit right after it; throw to refuse (the row is rolled back). Counts it makes
   * include the new conversation.
   */
  guard?: (trx: Db) => Promise<void>;
  /** Runs in the insert transaction after the row is written (the visitor's consent receipt). */
  afterInsert?: (trx: Db, conversationId: string, now: Date) => Promise<void>;
}

export interface CreatedConversation {
  conversation_id: string;
  conversation_name: string;
  conversation_url: string;
  status: 'active';
  callback_url?: string;
  created_at: string;
  meeting_token: string;
}

export async function createConversation(deps: ServiceDeps, input: CreateConversationInput): Promise<CreatedConversation> {
  const { db, clock } = deps;
  const provider = conferencingProvider(deps);
  const conversationId = newId('c');
  const now = clock.now();
  const properties = { ...input.properties, max_call_duration: input.properties?.max_call_duration ?? DEFAULT_MAX_CALL_DURATION };
  const expiresAt = new Date(now.getTime() + (properties.max_call_duration + ROOM_MARGIN_SECONDS) * 1000);
  const planned = provider.plannedUrl(conversationId);

  // One transaction (one turn on PGlite's single connection): the PAL and face, the row, the guard.
  const conversationName = await db.transaction().execute(async (trx) => {
    const resolved = await resolvePalAndFace(trx, input.ownerId, input.palId, input.faceId);
    if (!resolved) throw badRequest(`invalid_request: ${input.palField ?? 'pal_id'}: PAL ${input.palId} not found`);
    const { pal, face } = resolved;
    if (!face) throw badRequest(`invalid_request: ${input.faceField ?? 'face_id'}: PAL ${pal.pal_id} has no default face; give a face_id`);
    checkFace(face, face.wanted, input.ownerId, input.faceId ? (input.faceField ?? 'face_id') : 'default_face_id');
    const destinationId = properties.recording_destination_id;
    if (destinationId !== undefined) {
      const destination = await trx.selectFrom('recording_destinations').select('owner_id').where('destination_id', '=', destinationId).executeTakeFirst();
      if (!destination || destination.owner_id !== input.ownerId) throw badRequest(`invalid_request: properties.recording_destination_id: recording destination ${destinationId} not found`);
      if (properties.enable_recording !== true) throw badRequest('invalid_request: properties.recording_destination_id: set enable_recording to true to record the call');
    }
    const name = input.conversationName ?? `Conversation with ${pal.pal_name}`;
    await trx
      .insertInto('conversations')
      .values({
        conversation_id: conversationId,
        owner_id: input.ownerId,
        pal_id: pal.pal_id,
        face_id: face.wanted,
        deployment_id: input.deploymentId ?? null,
        conversation_name: name,
        provider: provider.name,
        conversation_url: planned ?? '',
        callback_url: input.callbackUrl ?? null,
        conversational_context: input.conversationalContext ?? null,
        custom_greeting: input.customGreeting ?? null,
        memory_stores: JSON.stringify(input.memoryStores ?? []),
        properties: JSON.stringify(properties),
        visitor_key: input.visitorKey ?? null,
        expires_at: expiresAt,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await input.afterInsert?.(trx, conversationId, now);
    await input.guard?.(trx);
    return name;
  });

  let room;
  try {
    room = await provider.open({ conversationId, expiresAt, properties });
  } catch (error) {
    await withdraw(db, conversationId, input.deploymentId ?? null);
    if (error instanceof ProviderError) deps.log.error('conferencing provider failed', { provider: provider.name, error: error.message });
    throw error;
  }
  if (room.conversationUrl !== planned || room.room) {
    await db.updateTable('conversations').set({ conversation_url: room.conversationUrl, provider_room: room.room }).where('conversation_id', '=', conversationId).execute();
  }
  // A Daily room gets its PAL from the runner; a refusal ends the conversation and throws PalUnavailableError.
  if (provider.name === 'daily' && room.room) await handOffToRunner(deps, conversationId, { url: room.conversationUrl, name: room.room }, expiresAt);
  return {
    conversation_id: conversationId,
    conversation_name: conversationName,
    conversation_url: room.conversationUrl,
    status: 'active',
    // A string field of the spec's shape: omitted when no callback address was given, never null.
    ...(input.callbackUrl ? { callback_url: input.callbackUrl } : {}),
    created_at: isoMillis(now),
    meeting_token: room.meetingToken,
  };
}

/** The room could not be opened: the conversation never existed, and it gives its deployment slot back. */
async function withdraw(db: Db, conversationId: string, deploymentId: string | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('conversations').where('conversation_id', '=', conversationId).execute();
    if (deploymentId) {
      await trx.updateTable('deployments').set((eb) => ({ usage_total: eb('usage_total', '-', 1) })).where('deployment_id', '=', deploymentId).where('usage_total', '>', 0).execute();
    }
  });
}
