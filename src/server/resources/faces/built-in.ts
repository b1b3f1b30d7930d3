// The still images of the built-in faces (launcher avatar, preview, landing page), drawn from the same
// geometry the elements animate: GET /faces/palkit-ada.svg.
import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../platform/http/app-env.js';
import { publicRoute } from '../../platform/http/openapi.js';
import { adaSvg } from '../../../face-drawing/ada.js';

const images: Record<string, string> = { 'palkit-ada.svg': adaSvg() };

const route = publicRoute({
  method: 'get',
  path: '/faces/{image}',
  tags: ['Faces'],
  summary: 'The still image of a built-in face (SVG)',
  request: {
    params: z.object({
      image: z
        .string()
        .max(64)
        .openapi({ param: { name: 'image', in: 'path' }, example: 'palkit-ada.svg' }),
    }),
  },
  responses: {
    200: { description: 'The image', content: { 'image/svg+xml': { schema: z.string() } } },
    404: { description: 'No such built-in face', content: { 'application/json': { schema: z.object({ error: z.string() }) } } },
  },
});

export function registerBuiltInFaceImages(app: ApiApp): void {
  app.openapi(route, (c) => {
    const svg = images[c.req.valid('param').image];
    if (!svg) return c.json({ error: 'face image not found' }, 404);
    return c.body(svg, 200, {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
    });
  });
}
