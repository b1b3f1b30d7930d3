import { z } from '@hono/zod-openapi';

/** Paging shared by the video and speech lists: `limit` items per page, 1-based `page`. */
export const PageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .openapi({ param: { name: 'limit', in: 'query' }, description: 'Items per page (1 to 100)', example: 10 }),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1)
    .openapi({ param: { name: 'page', in: 'query' }, description: 'Page number, starting at 1', example: 1 }),
});

export const HttpUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

export const Script = z
  .string()
  .max(5000, 'script is limited to 5000 characters')
  .refine((s) => s.trim().length > 0, 'script must not be empty');

export const VideoId = z
  .string()
  .min(1)
  .max(64)
  .openapi({ param: { name: 'video_id', in: 'path' }, example: 'v3k9x2m7q1w8e5r4t6y0' });

export const Video = z
  .object({
    video_id: z.string(),
    video_name: z.string(),
    status: z.enum(['generating', 'ready', 'error']),
    data: z.object({ script: z.string() }),
    download_url: z.string().nullable().openapi({ description: 'The MP4 file; null until ready' }),
    hosted_url: z.string().openapi({ description: 'A page on this service that plays the video (public, by its unguessable id)' }),
    stream_url: z
      .string()
      .nullable()
      .openapi({ description: 'The MP4, served with Range support for progressive playback; null until ready' }),
    status_details: z.string().nullable(),
    background_url: z.string().nullable(),
    background_source_url: z.string().nullable(),
    still_image_thumbnail_url: z.string().nullable().openapi({ description: 'JPEG still; null until ready' }),
    gif_thumbnail_url: z.string().nullable().openapi({ description: 'Short animated GIF preview; null until ready' }),
    error_details: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    generation_progress: z.string().openapi({ description: '`<done>/<total>` generation steps', example: '4/4' }),
    face_id: z.string(),
  })
  .openapi('Video');

export const VerboseVideo = Video.extend({
  queue_position: z.number().int().nullable().optional().openapi({
    description:
      'Only with verbose=true: while the video waits for its turn to render (`status_details` `Queued`), its place among your waiting videos (1 is next); null once it renders',
  }),
}).openapi('VerboseVideo');

export const CreateVideo = z
  .object({
    face_id: z.string().min(1).max(64).optional().openapi({
      description:
        'The face that speaks (required unless replica_id is given). A face trained by the service speaks with its own lips: its rig is drawn frame by frame, the mouth following the voice, with an "AI" mark in the top-right corner; other faces show their image or footage under the speech.',
    }),
    replica_id: z.string().min(1).max(64).optional().openapi({ description: 'Older name of face_id' }),
    script: Script.openapi({ description: 'What the face says, 1 to 5000 characters' }),
    video_name: z.string().trim().min(1).max(200).optional().openapi({ description: 'Defaults to the start of the script' }),
    callback_url: HttpUrl.optional().openapi({ description: 'Receives the `ready` or `error` callback' }),
    background_url: HttpUrl.optional().openapi({ description: 'Image or video shown behind the face' }),
    background_source_url: HttpUrl.optional().openapi({
      description: 'Alternative to background_url: a direct image or video address (web pages are not rendered)',
    }),
  })
  .refine((b) => b.face_id ?? b.replica_id, { message: 'face_id (or replica_id) is required', path: ['face_id'] })
  .refine((b) => !(b.face_id && b.replica_id && b.face_id !== b.replica_id), {
    message: 'face_id and replica_id name different faces',
    path: ['replica_id'],
  })
  .refine((b) => !(b.background_url && b.background_source_url), {
    message: 'give background_url or background_source_url, not both',
    path: ['background_source_url'],
  })
  .openapi('CreateVideo');

export const RenameVideo = z.object({ video_name: z.string().trim().min(1).max(200) }).openapi('RenameVideo');

export const VideoPage = z.object({ data: z.array(Video), total_count: z.number().int() }).openapi('VideoPage');
export const Deleted = z.object({ deleted: z.literal(true) });
