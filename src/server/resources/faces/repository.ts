// Faces in SQL and their wire views. A face of another owner is treated as unknown (404).
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import { isoMillis } from '../../platform/time.js';
import type { Secrets } from '../../platform/secrets.js';
import { previewExpiry } from '../media/access.js';
import { faceMediaLink, type FaceLinkGrant } from './media-url.js';
import type { RigSummary } from './rig/train.js';

export type Naming = 'replica' | 'face';

/** A face the caller may read: its own, or a built-in (system) face. */
export async function readableFace(db: Db, ownerId: number, faceId: string) {
  const row = await db
    .selectFrom('faces')
    .selectAll()
    .where('face_id', '=', faceId)
    .where((eb) => eb.or([eb('owner_id', '=', ownerId), eb('face_type', '=', 'system')]))
    .executeTakeFirst();
  if (!row) throw notFound(`face ${faceId} not found`);
  return row;
}

export async function ownedFace(db: Db, ownerId: number, faceId: string, lock?: 'update' | 'share') {
  let q = db.selectFrom('faces').selectAll().where('face_id', '=', faceId).where('owner_id', '=', ownerId);
  if (lock === 'update') q = q.forUpdate();
  if (lock === 'share') q = q.forShare();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(`face ${faceId} not found`);
  return row;
}

type Row = Awaited<ReturnType<typeof ownedFace>>;

/** A trained face's rig, as its verbose read shows it: where it is, its size, which mouths are real. */
function rigView(details: unknown, publicUrl: string, link: FaceLinkGrant | null) {
  const rig = (details as { rig?: RigSummary } | null)?.rig;
  if (!rig) return {};
  return {
    face_rig_url: faceMediaLink(publicUrl, rig.url, link),
    face_rig_bytes: rig.bytes,
    visemes_from_footage: rig.footage,
    visemes_warped: rig.warped,
  };
}

/**
 * A face as its owner reads it. `links`: its files' addresses carry an owner token of an hour or two
 * (media/access.ts), so that they can be shown in a page; without it, the bare addresses (the key reads them).
 */
export function faceView(row: Row, naming: Naming, verbose: boolean, publicUrl: string, links?: { secrets: Secrets; now: Date }) {
  const link = links
    ? { secrets: links.secrets, faceId: row.face_id, grant: { ownerId: row.owner_id }, expiresAt: previewExpiry(links.now) }
    : null;
  const rest = {
    // String fields of the spec's shape are omitted until they exist (never null).
    ...(row.thumbnail_video_url ? { thumbnail_video_url: faceMediaLink(publicUrl, row.thumbnail_video_url, link) } : {}),
    ...(row.thumbnail_image_url ? { thumbnail_image_url: faceMediaLink(publicUrl, row.thumbnail_image_url, link) } : {}),
    training_progress: row.training_progress,
    status: row.status as 'training' | 'completed' | 'error',
    error_message: row.error_message,
    ...(row.model_name ? { model_name: row.model_name } : {}),
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
    ...(row.consent ? { consent: row.consent } : {}),
    ...(verbose ? { replica_type: row.face_type, ...rigView(row.training_details, publicUrl, link) } : {}),
  };
  return naming === 'replica'
    ? { replica_id: row.face_id, replica_name: row.face_name, ...rest }
    : { face_id: row.face_id, face_name: row.face_name, ...rest };
}

/** PALs (of the same owner) whose default face is this one: a face in use cannot be deleted. */
export async function palsUsingFace(db: Db, ownerId: number, faceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('pals')
    .select('pal_id')
    .where('owner_id', '=', ownerId)
    .where('default_face_id', '=', faceId)
    .orderBy('pal_id')
    .execute();
  return rows.map((r) => r.pal_id);
}
