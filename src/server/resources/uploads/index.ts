// POST /v2/uploads: a customer hands the service a clip or photo it can train a face from, without
// hosting it anywhere. The body is read as it arrives (bounded by limitUploadSize), checked by its
// signature, and kept in the media store; its URL, passed as train_video_url, is read by the trainer
// straight from the store (see faces/training.ts), so no outbound fetch to the service itself happens.
// An upload lives for config.uploads.lifetimeSeconds, then the sweep removes it (expiry.ts).
import type { ResourceModule } from '../module.js';
import { isoMillis } from '../../platform/time.js';
import { sniffImage, sniffVideoContainer } from '../faces/video-check.js';
import { startUploadSweep } from './expiry.js';
import { UPLOAD_CONTENT_TYPES } from './limit.js';
import { uploadRoute } from './routes.js';

const accepted = new Set<string>(UPLOAD_CONTENT_TYPES);

export const uploadsModule: ResourceModule = {
  name: 'uploads',
  routes(app, deps) {
    app.openapi(uploadRoute, async (c) => {
      const contentType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!accepted.has(contentType)) return c.json({ error: `invalid_request: content-type must be one of ${UPLOAD_CONTENT_TYPES.join(', ')}` }, 400);
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (bytes.length === 0) return c.json({ error: 'invalid_request: the body is empty' }, 400);
      const sniffed = sniffVideoContainer(bytes) ?? sniffImage(bytes);
      // WebM and Matroska share a signature; a browser's MediaRecorder WebM is accepted as video/webm.
      const matches = sniffed && (sniffed.contentType === contentType || (contentType === 'video/webm' && sniffed.container === 'matroska'));
      if (!sniffed || !matches) return c.json({ error: `invalid_request: the body is not ${contentType}` }, 400);
      const expiresAt = new Date(deps.clock.now().getTime() + deps.config.uploads.lifetimeSeconds * 1000);
      const stored = await deps.media.store(deps.db, { ownerId: c.get('ownerId'), contentType, bytes, extension: sniffed.extension, expiresAt });
      return c.json({ upload_id: stored.mediaId, url: stored.url, content_type: contentType as (typeof UPLOAD_CONTENT_TYPES)[number], bytes: bytes.length, expires_at: isoMillis(expiresAt) }, 200);
    });
  },
  attach(_server, deps) {
    return startUploadSweep(deps);
  },
};
