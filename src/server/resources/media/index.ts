// GET /media/{media_id} and /media/t/{token}/{media_id}: serves stored media with Range support (browsers
// need it to play video), to whom its access allows (access.ts). Anything refused answers 404, as a file
// that does not exist: a refusal says nothing of what is there.
import type { Context } from 'hono';
import { ownerForKey } from '../../platform/http/auth.js';
import type { StoredMedia } from '../../platform/media/media-store.js';
import type { ResourceModule } from '../module.js';
import { ConversationCheck, readFaceToken } from './access.js';

/** How long a browser may keep a face's file it was allowed: a short while, in its own cache only. */
const FACE_MAX_AGE_SECONDS = 300;

export const mediaModule: ResourceModule = {
  name: 'media',
  routes(app, deps) {
    const conversations = new ConversationCheck(deps.db);

    /** The key's owner, when the request sends a key. */
    const keyOwner = async (c: Context) => {
      const key = c.req.header('x-api-key');
      return key ? ownerForKey(deps.db, key) : undefined;
    };

    /** The cache-control this request may be answered with, or null when it may not read the file. */
    async function allowed(c: Context, media: StoredMedia, token: string | undefined): Promise<string | null> {
      if (media.access === 'private') return null;
      if (media.access === 'public' && token === undefined) return 'public, max-age=31536000, immutable';
      if (token !== undefined) {
        if (media.access !== 'face') return null;
        const read = readFaceToken(deps.secrets, token);
        const now = deps.clock.now();
        if (!read || read.faceId !== media.faceId || read.expiresAt <= now) return null;
        if ('conversationId' in read.grant && !(await conversations.live(read.grant.conversationId, now))) return null;
        return `private, max-age=${FACE_MAX_AGE_SECONDS}`;
      }
      // An upload or a face's file without a token: its owner's key.
      return (await keyOwner(c)) === media.ownerId ? 'private, no-cache' : null;
    }

    async function serve(c: Context, mediaId: string, token: string | undefined): Promise<Response> {
      const media = await deps.media.get(deps.db, mediaId);
      const cacheControl = media ? await allowed(c, media, token) : null;
      if (!media || !cacheControl) return c.json({ error: 'media_not_found' }, 404, { 'cache-control': 'no-store' });
      const size = media.size;
      const headers: Record<string, string> = {
        'content-type': media.contentType,
        'accept-ranges': 'bytes',
        'cache-control': cacheControl,
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
        ...(media.access === 'public' ? {} : { vary: 'x-api-key', 'referrer-policy': 'no-referrer' }),
      };
      const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header('range') ?? '');
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (start >= size || start > end) return c.body(null, 416, { ...headers, 'content-range': `bytes */${size}` });
        return c.body(media.held ? media.held.subarray(start, end + 1) : media.stream(start, end), 206, {
          ...headers,
          'content-range': `bytes ${start}-${end}/${size}`,
          'content-length': String(end - start + 1),
        });
      }
      if (size === 0) return c.body(null, 200, { ...headers, 'content-length': '0' });
      return c.body(media.held ?? media.stream(0, size - 1), 200, { ...headers, 'content-length': String(size) });
    }

    app.get('/media/:mediaId', (c) => serve(c, c.req.param('mediaId'), undefined));
    app.get('/media/t/:token/:mediaId', (c) => serve(c, c.req.param('mediaId'), c.req.param('token')));
  },
};
