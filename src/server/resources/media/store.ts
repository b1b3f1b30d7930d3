// Files the service makes (face thumbnails, rendered videos, speech) live in the database, so every
// instance can serve them; each is served publicly at /media/{media_id} under an unguessable id.
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';

export async function storeMedia(db: Db, publicUrl: string, input: { ownerId: number; contentType: string; bytes: Uint8Array; extension: string }): Promise<{ mediaId: string; url: string }> {
  const mediaId = newId('md', 24) + '.' + input.extension.replace(/[^a-z0-9]/gi, '');
  await db.insertInto('media').values({ media_id: mediaId, owner_id: input.ownerId, content_type: input.contentType, bytes: input.bytes }).execute();
  return { mediaId, url: `${publicUrl}/media/${mediaId}` };
}

export async function deleteMediaByUrl(db: Db, url: string | null | undefined): Promise<void> {
  const id = url?.match(/\/media\/([A-Za-z0-9.]+)$/)?.[1];
  if (id) await db.deleteFrom('media').where('media_id', '=', id).execute();
}
