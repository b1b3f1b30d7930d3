// Route definition of POST /v2/uploads: a clip or photo sent as the raw body, kept as media.
import { z } from '@hono/zod-openapi';
import { errors, json, keyedRoute } from '../../platform/http/openapi.js';
import { limitUploadSize, UPLOAD_CONTENT_TYPES } from './limit.js';

export const Upload = z
  .object({
    upload_id: z.string().openapi({ example: 'mdq8x0c2kd93jd0sk2aa7p1z3v.webm' }),
    url: z.string().openapi({
      description: 'Pass it as `train_video_url` to POST /v2/faces; the service reads it internally.',
      example: 'https://pal.example.com/media/mdq8x0c2kd93jd0sk2aa7p1z3v.webm',
    }),
    content_type: z.enum(UPLOAD_CONTENT_TYPES),
    bytes: z.number().int(),
    expires_at: z.string().openapi({
      description:
        'When the upload is removed (its lifetime: PALKIT_UPLOAD_LIFETIME_SECONDS, one day by default); a face training from it by then keeps it until its training ends.',
      example: '2026-11-26T07:30:00.000Z',
    }),
  })
  .openapi('Upload');

const binary = z.string().openapi({ type: 'string', format: 'binary' });

export const uploadRoute = keyedRoute({
  method: 'post',
  path: '/v2/uploads',
  tags: ['Uploads'],
  summary: 'Upload a training clip or photo (the raw body, at most 50 MB) to pass as train_video_url',
  description:
    'The body is streamed to its file as it arrives. An owner keeps at most PALKIT_UPLOAD_QUOTA_MB (500) of unexpired uploads and sends at most PALKIT_UPLOAD_MB_PER_MINUTE (100) a minute: past either, 429 `upload_quota_exceeded` or `upload_rate_exceeded` with Retry-After (a declared Content-Length is checked before the body is read).',
  middleware: [limitUploadSize],
  request: {
    body: { required: true, content: Object.fromEntries(UPLOAD_CONTENT_TYPES.map((t) => [t, { schema: binary }])) },
  },
  responses: { 200: json(Upload, 'Stored'), ...errors(400, 413, 429) },
});
