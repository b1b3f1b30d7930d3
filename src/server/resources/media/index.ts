// GET /media/{media_id}: serves stored media with Range support (browsers need it to play video).
import type { ResourceModule } from '../module.js';

export const mediaModule: ResourceModule = {
  name: 'media',
  routes(app, deps) {
    app.get('/media/:mediaId', async (c) => {
      const media = await deps.media.get(deps.db, c.req.param('mediaId'));
      if (!media) return c.json({ error: 'media_not_found' }, 404);
      const size = media.size;
      const headers: Record<string, string> = {
        'content-type': media.contentType,
        'accept-ranges': 'bytes',
        'cache-control': 'public, max-age=31536000, immutable',
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
      };
      const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header('range') ?? '');
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (start >= size || start > end) return c.body(null, 416, { ...headers, 'content-range': `bytes */${size}` });
        return c.body(media.held ? media.held.subarray(start, end + 1) : media.stream(start, end), 206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) });
      }
      if (size === 0) return c.body(null, 200, { ...headers, 'content-length': '0' });
      return c.body(media.held ?? media.stream(0, size - 1), 200, { ...headers, 'content-length': String(size) });
    });
  },
};
