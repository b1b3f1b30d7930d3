// PALs in SQL and their wire views under either naming. A PAL of another owner is treated as unknown.
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import { isoMillis } from '../../platform/time.js';
import { conferencingEmail, type PalDocument, type PalPath } from './document.js';
import { maskLayerSecrets } from './layer-secrets.js';

export async function ownedPal(db: Db, ownerId: number, palId: string, forUpdate = false) {
  let q = db.selectFrom('pals').selectAll().where('pal_id', '=', palId).where('owner_id', '=', ownerId);
  if (forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('PAL not found');
  return row;
}

type PalRow = Awaited<ReturnType<typeof ownedPal>>;

/** The editable document as shown on a path: its naming, keys masked, without read-only fields. */
export function editableDocument(definition: PalDocument, path: PalPath): Record<string, unknown> {
  const { pal_name, default_face_id, ...rest } = definition;
  const names = path === 'pals' ? { pal_name, default_face_id } : { persona_name: pal_name, default_replica_id: default_face_id };
  return { ...names, ...rest, layers: maskLayerSecrets(definition.layers) };
}

export function palView(row: PalRow, path: PalPath, inviteDomain: string) {
  const definition = row.definition as unknown as PalDocument;
  const email = conferencingEmail(definition, inviteDomain);
  return {
    [path === 'pals' ? 'pal_id' : 'persona_id']: row.pal_id,
    ...editableDocument(definition, path),
    ...(email ? { conferencing_email: email } : {}),
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
  };
}
