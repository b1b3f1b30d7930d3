// POST /v2/uploads: a customer hands the service a clip or photo it can train a face from, without
// hosting it anywhere. The body is streamed to its file as it arrives (never whole in memory where media
// are files), counted against the 50 MB bound, checked by its signature, and kept in the media store,
// within the owner's quota and rate (quota.ts); its URL, passed as train_video_url, is read by the trainer
// straight from the store (see faces/training.ts), so no outbound fetch to the service itself happens.
// An upload lives for config.uploads.lifetimeSeconds, then the sweep removes it (expiry.ts).
import type { ResourceModule } from '../module.js';
import { isoMillis } from '../../platform/time.js';
import { sniffImage, sniffVideoContainer } from '../faces/video-check.js';
import { startUploadSweep } from './expiry.js';
import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES, uploadTooLarge } from './limit.js';
import { uploadQuota } from './quota.js';
import { ApiError, badRequest } from '../../platform/http/errors.js';
import { uploadRoute } from './routes.js';

const accepted = new Set<string>(UPLOAD_CONTENT_TYPES);

export const uploadsModule: ResourceModule = {
  name: 'uploads',
  routes(app, deps) {
    const quota = uploadQuota(deps);
    app.openapi(uploadRoute, async (c) => {
      const ownerId = c.get('ownerId');
      const contentType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!accepted.has(contentType))
        return c.json({ error: `invalid_request: content-type must be one of ${UPLOAD_CONTENT_TYPES.join(', ')}` }, 400);
      // A declared size is checked before a byte is read; a chunked body once it has arrived.
      const declared = Number(c.req.header('content-length') ?? 0) || 0;
      let reservation;
      try {
        reservation = await quota.reserve(ownerId, declared);
      } catch (error) {
        // The body is not read: the connection closes after the answer, rather than the service draining up
        // to 50 MB it refused (21 refused bodies in 20 s slowed another owner's replies to ~1 s).
        if (error instanceof ApiError) return c.json(error.body as { error: string }, 429, { ...error.headers, connection: 'close' });
        throw error;
      }
      const body = c.req.raw.body;
      if (!body) {
        reservation.settle(0);
        return c.json({ error: 'invalid_request: the body is empty' }, 400);
      }
      const expiresAt = new Date(deps.clock.now().getTime() + deps.config.uploads.lifetimeSeconds * 1000);
      let stored;
      try {
        stored = await deps.media.storeStream(deps.db, {
          ownerId,
          contentType,
          expiresAt,
          body: body as unknown as AsyncIterable<Uint8Array>,
          maxBytes: UPLOAD_MAX_BYTES,
          tooLarge: () => new ApiError(413, 'too large'),
          check(head, size) {
            if (size === 0) throw badRequest('invalid_request: the body is empty');
            const sniffed = sniffVideoContainer(head) ?? sniffImage(head);
            // WebM and Matroska share a signature; a browser's MediaRecorder WebM is accepted as video/webm.
            const matches =
              sniffed && (sniffed.contentType === contentType || (contentType === 'video/webm' && sniffed.container === 'matroska'));
            if (!sniffed || !matches) throw badRequest(`invalid_request: the body is not ${contentType}`);
            return sniffed.extension;
          },
        });
      } catch (error) {
        reservation.settle(0);
        if (error instanceof ApiError && error.status === 413) return uploadTooLarge(c);
        throw error;
      }
      reservation.settle(stored.size);
      return c.json(
        {
          upload_id: stored.mediaId,
          url: stored.url,
          content_type: contentType as (typeof UPLOAD_CONTENT_TYPES)[number],
          bytes: stored.size,
          expires_at: isoMillis(expiresAt),
        },
        200,
      );
    });
  },
  attach(_server, deps) {
    return startUploadSweep(deps);
  },
};
