// Videos in SQL and their wire form. Another owner's video answers 404 exactly like a missing one.
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { badRequest, notFound, tooManyRequests } from '../../platform/http/errors.js';
import { isoMillis } from '../../platform/time.js';

export type VideoRow = Selectable<Database['videos']>;

/** Steps of a generation: speech, background, render, publish. */
export const VIDEO_STEPS = 4;
export const progress = (done: number) => `${done}/${VIDEO_STEPS}`;

export const hostedUrl = (publicUrl: string, videoId: string) => `${publicUrl}/videos/${videoId}`;

export async function ownedVideo(db: Db, ownerId: number, videoId: string): Promise<VideoRow> {
  const row = await db.selectFrom('videos').selectAll().where('video_id', '=', videoId).where('owner_id', '=', ownerId).executeTakeFirst();
  if (!row) throw notFound(`video ${videoId} not found`);
  return row;
}

/** A face the owner may render: theirs or a system face, trained. Unknown or foreign faces are a bad reference (400). */
export async function usableFace(db: Db, ownerId: number, faceId: string) {
  const face = await db.selectFrom('faces').selectAll().where('face_id', '=', faceId).executeTakeFirst();
  if (!face || (face.owner_id !== ownerId && face.face_type !== 'system'))
    throw badRequest(`invalid face_id: face ${faceId} does not exist`);
  if (face.status !== 'completed' && face.status !== 'ready')
    throw badRequest(`invalid face_id: face ${faceId} is not ready (status ${face.status})`);
  if (!face.thumbnail_image_url && !face.thumbnail_video_url && !face.train_video_url)
    throw badRequest(`invalid face_id: face ${faceId} has no image or video to render`);
  return face;
}

export function videoView(row: VideoRow, publicUrl: string) {
  const ready = row.status === 'ready';
  return {
    video_id: row.video_id,
    video_name: row.video_name,
    status: row.status,
    data: { script: row.script },
    download_url: ready ? row.video_media_url : null,
    hosted_url: hostedUrl(publicUrl, row.video_id),
    stream_url: ready ? row.video_media_url : null,
    status_details: row.status_details,
    background_url: row.background_url,
    background_source_url: row.background_source_url,
    still_image_thumbnail_url: ready ? row.still_media_url : null,
    gif_thumbnail_url: ready ? row.gif_media_url : null,
    error_details: row.error_details,
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
    generation_progress: row.generation_progress,
    face_id: row.face_id,
  };
}

/** The callback body of the spec's "Video generation callbacks": exactly its fields. */
export function videoCallbackBody(row: VideoRow, publicUrl: string): Record<string, unknown> {
  const view = videoView(row, publicUrl);
  const body: Record<string, unknown> = {
    created_at: view.created_at,
    updated_at: view.updated_at,
    data: view.data,
    download_url: view.download_url,
    hosted_url: view.hosted_url,
    stream_url: view.stream_url,
    generation_progress: view.generation_progress,
    face_id: view.face_id,
    status: view.status,
    status_details: view.status_details,
    video_id: view.video_id,
    video_name: view.video_name,
  };
  if (row.status === 'error') body.error_details = view.error_details;
  return body;
}

/** Media files a video owns (intermediate and final), removed with it. */
export const videoMediaUrls = (row: VideoRow) =>
  [row.speech_media_url, row.background_media_url, row.video_media_url, row.still_media_url, row.gif_media_url].filter((u): u is string =>
    Boolean(u),
  );

/** Default name of a video or speech item: the start of its script, on one line. */
export function nameFromScript(script: string): string {
  const line = script.trim().replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** Seconds a refused create is told to wait: about how long a video takes. */
const QUEUE_RETRY_AFTER_SECONDS = 60;

/** An owner's videos not yet ready (rendering or queued) are bounded: past `cap` a create answers 429. */
export async function checkVideoQueue(db: Db, ownerId: number, cap: number): Promise<void> {
  const { n } = await db
    .selectFrom('videos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'generating')
    .executeTakeFirstOrThrow();
  if (Number(n) >= cap)
    throw tooManyRequests(
      `too_many_queued: ${cap} videos of yours are queued or generating; send this again once one is ready`,
      QUEUE_RETRY_AFTER_SECONDS,
    );
}

/**
 * Where a video waits (verbose reads): 1 is next to render; null once it renders or is done. Among its owner's
 * videos, by creation (one of an owner's videos renders at a time).
 */
export async function queuePosition(db: Db, row: VideoRow, queued: string): Promise<number | null> {
  if (row.status !== 'generating' || row.status_details !== queued) return null;
  const { n } = await db
    .selectFrom('videos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', row.owner_id)
    .where('status', '=', 'generating')
    .where('status_details', '=', queued)
    .where((eb) =>
      eb.or([eb('created_at', '<', row.created_at), eb.and([eb('created_at', '=', row.created_at), eb('video_id', '<', row.video_id)])]),
    )
    .executeTakeFirstOrThrow();
  return Number(n) + 1;
}
