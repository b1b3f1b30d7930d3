// The "make your face" page's backend (/demo/face.html): it holds the demo key, so the page never does.
// POST /demo/api/face takes the visitor's clip or photo (raw body, its content-type; the page keeps it
// under the service-wide 1 MB body bound), uploads it (POST /v2/uploads) and trains a face from the
// upload's url (POST /v2/faces). GET /demo/api/face/:id reports training; POST
// /demo/api/face/:id/conversation starts a call with the demo's PAL wearing that face.
import type { ApiApp } from '../src/server/platform/http/app-env.js';
import type { ServiceDeps } from '../src/server/platform/context.js';
import type { DemoSiteState } from './site-state.js';

const FACE_ID = /^r[a-z0-9]{1,63}$/;

export function demoFaceRoutes(app: ApiApp, deps: ServiceDeps, site: DemoSiteState): void {
  const call = (method: string, path: string, body?: BodyInit, contentType = 'application/json') =>
    fetch(deps.config.publicUrl + path, { method, headers: { 'x-api-key': site.key, 'content-type': contentType }, body });

  app.post('/demo/api/face', async (c) => {
    if (c.req.query('consent') !== 'yes') return c.json({ error: 'consent required: a face may only be made of yourself or with its owner\'s consent' }, 400);
    const upload = await call('POST', '/v2/uploads', await c.req.arrayBuffer(), c.req.header('content-type') ?? '');
    const uploaded = (await upload.json()) as { url?: string; error?: string };
    if (!upload.ok || !uploaded.url) return c.json({ error: uploaded.error ?? 'upload failed' }, upload.status === 413 ? 413 : 400);
    const face = await call('POST', '/v2/faces', JSON.stringify({ face_name: 'Demo visitor', train_video_url: uploaded.url }));
    return c.json(await face.json(), face.status as 200);
  });

  app.get('/demo/api/face/:id', async (c) => {
    const id = c.req.param('id');
    if (!FACE_ID.test(id)) return c.json({ error: 'not a face id' }, 400);
    const r = await call('GET', `/v2/faces/${id}`);
    const f = (await r.json()) as Record<string, unknown>;
    return c.json(r.ok ? { face_id: f.face_id, status: f.status, training_progress: f.training_progress, error_message: f.error_message } : f, r.status as 200);
  });

  app.post('/demo/api/face/:id/conversation', async (c) => {
    const id = c.req.param('id');
    if (!FACE_ID.test(id)) return c.json({ error: 'not a face id' }, 400);
    if (!site.state) return c.json({ error: 'demo not seeded' }, 503);
    const r = await call('POST', '/v2/conversations', JSON.stringify({
      pal_id: site.state.fullPalId,
      face_id: id,
      conversation_name: 'Your face demo',
      custom_greeting: 'Hello! This is your face speaking. Ask me anything.',
      properties: { max_call_duration: 300, participant_left_timeout: 30 },
    }));
    const body = (await r.json()) as Record<string, unknown>;
    return c.json(r.ok ? { conversation_url: body.conversation_url, meeting_token: body.meeting_token } : body, r.status as 200);
  });
}
