// GET /media/{media_id}: serves stored media with Range support (browsers need it to play video).
import type { ResourceModule } from '../module.js';

export const mediaModule: ResourceModule = {
  name: 'media',
  routes(app, deps) {
    app.get('/media/:mediaId', async (c) => {
      const row = await deps.db.selectFrom('media').select(['content_type', 'bytes']).where('media_id', '=', c.req.param('mediaId')).executeTakeFirst();
      if (!row) return c.json({ error: 'media_not_found' }, 404);
      const bytes = new Uint8Array(row.bytes) as Uint8Array<ArrayBuffer>;
      const headers: Record<string, string> = {
        'content-type': row.content_type,
        'accept-ranges': 'bytes',
        'cache-control': 'public, max-age=31536000, immutable',
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
      };
      const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header('range') ?? '');
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, bytes.length - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
        if (start >= bytes.length || start > end) return c.body(null, 416, { ...headers, 'content-range': `bytes */${bytes.length}` });
        return c.body(bytes.slice(start, end + 1), 206, { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}` });
      }
      return c.body(bytes, 200, headers);
    });
  },
};
