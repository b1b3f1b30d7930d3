// Everything a local room needs to know about its conversation, its PAL and the PAL's face, read once
// when the room opens (changes to the PAL apply to its next conversation, as in the hosted product).
import type { Db } from '../../platform/db/database.js';
import type { Secrets } from '../../platform/secrets.js';
import type { FaceLinkGrant } from '../faces/media-url.js';

export interface CanvasSkill {
  /** The skill's `config.components` overlay (unlisted components stay on). */
  components: Record<string, { enabled?: boolean; [key: string]: unknown }>;
}

export interface LiveConversation {
  conversationId: string;
  ownerId: number;
  status: 'active' | 'ended';
  provider: 'local' | 'daily';
  callbackUrl: string | null;
  conversationalContext: string | null;
  customGreeting: string | null;
  memoryStores: string[];
  properties: Record<string, unknown>;
  createdAt: Date;
  startedAt: Date | null;
  /** When its room expires: the face links handed to its visitor end then (media/access.ts). */
  expiresAt: Date | null;
  faceId: string | null;
  pal: {
    palId: string;
    name: string;
    pipelineMode: 'full' | 'echo';
    definition: Record<string, unknown>;
  };
  /** The face's media (paths on this service for built-in faces) and, for a drawn face, its model. */
  face: {
    videoUrl: string | null;
    imageUrl: string | null;
    model: string | null;
    /** A trained face's rig.json (faces/rig.ts). */ rigUrl?: string | null;
  };
  /** Present when the PAL has the magic_canvas skill and its pipeline can use it (not echo). */
  canvas: CanvasSkill | null;
}

/** The conversation as a room sees it, or undefined when it does not exist. */
export async function loadLiveConversation(db: Db, conversationId: string): Promise<LiveConversation | undefined> {
  const row = await db
    .selectFrom('conversations as c')
    .leftJoin('pals as p', 'p.pal_id', 'c.pal_id')
    .select([
      'c.conversation_id',
      'c.owner_id',
      'c.status',
      'c.provider',
      'c.callback_url',
      'c.conversational_context',
      'c.custom_greeting',
      'c.memory_stores',
      'c.properties',
      'c.created_at',
      'c.live_started_at',
      'c.expires_at',
      'c.face_id',
      'c.pal_id',
      'p.pal_name',
      'p.pipeline_mode',
      'p.definition',
      'p.default_face_id',
    ])
    .where('c.conversation_id', '=', conversationId)
    .executeTakeFirst();
  if (!row) return undefined;
  const faceId = row.face_id ?? row.default_face_id ?? null;
  const face = faceId
    ? await db
        .selectFrom('faces')
        .select(['thumbnail_video_url', 'thumbnail_image_url', 'face_model', 'training_details'])
        .where('face_id', '=', faceId)
        .executeTakeFirst()
    : undefined;
  const pipelineMode = row.pipeline_mode === 'echo' ? 'echo' : 'full';
  const skill = row.pal_id
    ? await db
        .selectFrom('pal_skills')
        .select('config')
        .where('pal_id', '=', row.pal_id)
        .where('skill_id', '=', 'magic_canvas')
        .executeTakeFirst()
    : undefined;
  const components = skill && isRecord(skill.config.components) ? (skill.config.components as CanvasSkill['components']) : {};
  return {
    conversationId: row.conversation_id,
    ownerId: row.owner_id,
    status: row.status,
    provider: row.provider,
    callbackUrl: row.callback_url,
    conversationalContext: row.conversational_context,
    customGreeting: row.custom_greeting,
    memoryStores: Array.isArray(row.memory_stores) ? row.memory_stores.filter((s): s is string => typeof s === 'string') : [],
    properties: isRecord(row.properties) ? row.properties : {},
    createdAt: row.created_at,
    startedAt: row.live_started_at,
    expiresAt: row.expires_at,
    faceId,
    pal: { palId: row.pal_id, name: row.pal_name ?? 'PAL', pipelineMode, definition: isRecord(row.definition) ? row.definition : {} },
    face: {
      videoUrl: face?.thumbnail_video_url ?? null,
      imageUrl: face?.thumbnail_image_url ?? null,
      model: face?.face_model ?? null,
      rigUrl: rigUrlOf(face?.training_details),
    },
    // The skill has no effect on echo PALs.
    canvas: skill && pipelineMode !== 'echo' ? { components } : null,
  };
}

/**
 * The grant a conversation's face links carry (faces/media-url.ts): bound to it, ending with its room (an
 * hour from `now` for a row without an expiry).
 */
export function conversationFaceLink(
  secrets: Secrets,
  conv: Pick<LiveConversation, 'conversationId' | 'faceId' | 'expiresAt'>,
  now: Date,
): FaceLinkGrant | null {
  if (!conv.faceId) return null;
  return {
    secrets,
    faceId: conv.faceId,
    grant: { conversationId: conv.conversationId },
    expiresAt: conv.expiresAt ?? new Date(now.getTime() + 3600_000),
  };
}

/** The rig a trained face's training left (see faces/training.ts), if any. */
function rigUrlOf(details: unknown): string | null {
  const rig = isRecord(details) ? details.rig : undefined;
  return isRecord(rig) && typeof rig.url === 'string' ? rig.url : null;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
