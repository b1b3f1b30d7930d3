// Who may read a stored file (resources/media/access.ts). Until now every file was served to anyone with
// its URL, immutable-cached; a trained face's thumbnail video was the customer's training clip itself.
// `access`: `public` (rendered videos, speech: made to be shared), `owner` (uploads: the owner's key),
// `face` (a face's derived files: a token bound to a conversation or deployment, or the owner's key),
// `private` (a training clip's copy, read by training alone, never served). `face_id`: the face a `face`
// or `private` file belongs to. No face shows its source any more: a thumbnail that was the clip or the
// photo itself is dropped (the still extracted from a clip stays) and the copies of faces no longer
// training are deleted (a face still training keeps its copy, private, until training ends).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('media')
    .addColumn('access', 'text', (c) => c.notNull().defaultTo('public'))
    .addColumn('face_id', 'text')
    .execute();
  await classifyExistingMedia(db);
}

/** Sorts the media stored before into their kinds, and drops what was a training clip shown as a thumbnail. */
export async function classifyExistingMedia(db: Kysely<any>): Promise<void> {
  await sql`update media set access = 'owner' where expires_at is not null`.execute(db);
  // A face's files: its thumbnails and its rig's files.
  await sql`
    update media m set access = 'face', face_id = f.face_id
    from faces f
    where f.face_type = 'user' and (
      m.media_id = substring(f.thumbnail_video_url from '/media/([A-Za-z0-9.]+)$')
      or m.media_id = substring(f.thumbnail_image_url from '/media/([A-Za-z0-9.]+)$')
      or (jsonb_typeof(f.training_details->'rig'->'media_ids') = 'array' and m.media_id in (select jsonb_array_elements_text(f.training_details->'rig'->'media_ids'))))
  `.execute(db);
  // The training clip's copy (training_details.video_media_id): private while training uses it, gone after.
  await sql`
    update media m set access = 'private', face_id = f.face_id
    from faces f where m.media_id = f.training_details->>'video_media_id' and f.status = 'training'
  `.execute(db);
  await sql`
    update faces set
      thumbnail_video_url = case when substring(thumbnail_video_url from '/media/([A-Za-z0-9.]+)$') = training_details->>'video_media_id' then null else thumbnail_video_url end,
      thumbnail_image_url = case when substring(thumbnail_image_url from '/media/([A-Za-z0-9.]+)$') = training_details->>'video_media_id' then null else thumbnail_image_url end
    where training_details->>'video_media_id' is not null
  `.execute(db);
  // Deleted rows' files (PGlite) are removed at the next start, as files without a row (media/store.ts).
  await sql`
    delete from media m using faces f
    where m.media_id = f.training_details->>'video_media_id' and f.status <> 'training'
  `.execute(db);
}
