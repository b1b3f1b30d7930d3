// The upload's own body limit: the service-wide 1 MB one skips this path (see app.ts).
import type { Context, MiddlewareHandler } from 'hono';
import { limitBodySize } from '../../platform/http/body-limit.js';

export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
export const UPLOAD_PATH = '/v2/uploads';
export const UPLOAD_CONTENT_TYPES = ['video/webm', 'video/mp4', 'video/quicktime', 'image/jpeg', 'image/png', 'image/webp'] as const;

/** Whether the service-wide bound gives way to this one: only for a body of an accepted type. */
export function isUpload(method: string, path: string, contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return method === 'POST' && path === UPLOAD_PATH && (UPLOAD_CONTENT_TYPES as readonly string[]).includes(type);
}

export const uploadTooLarge = (c: Context) =>
  c.json({ error: `payload_too_large: uploads are limited to ${UPLOAD_MAX_BYTES} bytes` }, 413, { connection: 'close' });

const declaredSize = limitBodySize(UPLOAD_MAX_BYTES, uploadTooLarge);

/**
 * A declared size (Content-Length) past the bound is refused before the body is read; a chunked body goes on
 * to the route, which counts it as it streams it to its file (limitBodySize would gather it whole).
 */
export const limitUploadSize: MiddlewareHandler = (c, next) =>
  c.req.header('content-length') !== undefined && c.req.header('transfer-encoding') === undefined ? declaredSize(c, next) : next();
