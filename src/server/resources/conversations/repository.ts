// Conversations in SQL, and the PAL/face lookups a conversation needs (those tables belong to the
// PAL and face areas; only the columns every PAL and face has are read here).
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { isoMillis } from '../../platform/time.js';

export type ConversationRow = Selectable<Database['conversations']>;

export interface PalSummary {
  pal_id: string;
  pal_name: string;
  default_face_id: string | null;
}

/** The caller's PAL, or null. */
export async function findOwnedPal(db: Db, ownerId: number, palId: string): Promise<PalSummary | null> {
  const row = await db
    .selectFrom('pals')
    .select(['pal_id', 'pal_name', 'default_face_id', 'definition'])
    .where('pal_id', '=', palId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) return null;
  const definition = (row.definition ?? {}) as Record<string, unknown>;
  const fromDefinition = [definition.default_face_id, definition.default_replica_id].find(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  return { pal_id: row.pal_id, pal_name: row.pal_name, default_face_id: row.default_face_id ?? fromDefinition ?? null };
}

/** A face the owner may use in a call: their own or a system face, trained. 400 otherwise. */
export function checkFace(
  face: { face_id: string | null; owner_id: number | null; face_type: string | null; status: string | null },
  faceId: string,
  ownerId: number,
  field: string,
): void {
  if (face.face_id === null || (face.owner_id !== ownerId && face.face_type !== 'system'))
    throw badRequest(`invalid_request: ${field}: face ${faceId} not found`);
  if (face.status !== 'completed' && face.status !== 'ready')
    throw badRequest(`invalid_request: ${field}: face ${faceId} is not ready (status ${face.status})`);
}

export interface PalAndFace {
  pal: PalSummary;
  /** The face to use (given, else the PAL's default) with what is needed to check it; null when there is none. */
  face: {
    face_id: string | null;
    owner_id: number | null;
    face_type: string | null;
    status: string | null;
    wanted: string;
    /** A trained face's rig.json, as training left it. */ rig_url?: string | null;
  } | null;
}

/** The rig.json a trained face's training left (faces/training.ts), as a column of a query joining `faces`. */
const faceRigUrlColumn = sql<string | null>`faces.training_details->'rig'->>'url'`;

/**
 * The id of the face a conversation uses: the one given, else the PAL's default (its column, or for
 * older PALs its definition). An expression over `pals`, for queries that join the PAL.
 */
export function wantedFaceId(faceId?: string) {
  const defaults = sql<string | null>`pals.default_face_id, pals.definition->>'default_face_id', pals.definition->>'default_replica_id'`;
  return faceId === undefined ? sql<string | null>`coalesce(${defaults})` : sql<string | null>`coalesce(${faceId}::text, ${defaults})`;
}

/** The face columns of PalAndFaceColumns, for a query joining `faces` on `wanted` (a wantedFaceId). */
export function wantedFaceColumns(wanted: RawBuilder<string | null>) {
  return [
    wanted.as('wanted_face_id'),
    'faces.face_id',
    'faces.owner_id as face_owner_id',
    'faces.face_type',
    'faces.status as face_status',
    faceRigUrlColumn.as('face_rig_url'),
  ] as const;
}

/** The PAL and face columns a query joining `pals` and `faces` (on wantedFaceId) selects, null where nothing joined. */
export interface PalAndFaceColumns {
  pal_id: string | null;
  pal_name: string | null;
  wanted_face_id: string | null;
  face_id: string | null;
  face_owner_id: number | null;
  face_type: string | null;
  face_status: string | null;
  face_rig_url?: string | null;
}

/** A PAL and face read by such a join (null when no PAL joined). */
export function palAndFaceOf(row: PalAndFaceColumns): PalAndFace | null {
  if (row.pal_id === null || row.pal_name === null) return null;
  return {
    pal: { pal_id: row.pal_id, pal_name: row.pal_name, default_face_id: null },
    face:
      row.wanted_face_id === null
        ? null
        : {
            face_id: row.face_id,
            owner_id: row.face_owner_id,
            face_type: row.face_type,
            status: row.face_status,
            wanted: row.wanted_face_id,
            rig_url: row.face_rig_url ?? null,
          },
  };
}

/**
 * A condition that holds while the PAL and the face it uses are as `read` found them (the PAL's name and
 * face id, the face's owner, type and status): for a write that relies on that read without repeating
 * it. Two single-table lookups: cheaper to plan than the join that read them.
 */
export function palAndFaceAsRead(ownerId: number, read: PalAndFace & { face: NonNullable<PalAndFace['face']> }) {
  const { pal, face } = read;
  return sql`exists (select 1 from pals where pal_id = ${pal.pal_id} and owner_id = ${ownerId} and pal_name = ${pal.pal_name} and ${wantedFaceId()} = ${face.wanted})
    and exists (select 1 from faces where face_id = ${face.wanted} and owner_id = ${face.owner_id} and face_type = ${face.face_type} and status = ${face.status})`;
}

/** The caller's PAL and the face a conversation would use, in one query (null when the PAL is not theirs). */
export async function resolvePalAndFace(db: Db, ownerId: number, palId: string, faceId: string | undefined): Promise<PalAndFace | null> {
  const wanted = wantedFaceId(faceId);
  const row = await db
    .selectFrom('pals')
    .leftJoin('faces', (j) => j.on('faces.face_id', '=', wanted))
    .select(['pals.pal_id', 'pals.pal_name', ...wantedFaceColumns(wanted)])
    .where('pals.pal_id', '=', palId)
    .where('pals.owner_id', '=', ownerId)
    .executeTakeFirst();
  return row ? palAndFaceOf(row) : null;
}

export async function ownedConversation(db: Db, ownerId: number, conversationId: string): Promise<ConversationRow> {
  const row = await db
    .selectFrom('conversations')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) throw notFound('conversation_not_found');
  return row;
}

export function conversationView(row: ConversationRow) {
  return {
    conversation_id: row.conversation_id,
    conversation_name: row.conversation_name,
    conversation_url: row.conversation_url,
    status: row.status,
    callback_url: row.callback_url,
    pal_id: row.pal_id,
    persona_id: row.pal_id,
    face_id: row.face_id,
    replica_id: row.face_id,
    deployment_id: row.deployment_id,
    conversational_context: row.conversational_context,
    custom_greeting: row.custom_greeting,
    memory_stores: row.memory_stores,
    properties: row.properties,
    shutdown_reason: row.shutdown_reason,
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
    ended_at: row.ended_at ? isoMillis(row.ended_at) : null,
  };
}
