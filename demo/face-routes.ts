// The "make your face" page's backend (/demo/face.html): it holds the demo key, so the page never does.
// GET /demo/api/face/consent gives the consent text the page shows. POST /demo/api/face?consent=<version>
// takes the visitor's clip or photo (raw body, its content-type; the page keeps it under the service-wide
// 1 MB body bound), uploads it (POST /v2/uploads) and trains a face from the upload's url (POST /v2/faces)
// with the consent recorded: who (the name the visitor gave, if any), when, and the text they agreed to.
// It answers a visitor token: only it reads the face's training (GET /demo/api/face/:id), starts a call with
// it (POST …/conversation) or deletes it (DELETE …). A demo face lives a day: a sweep deletes older ones.
import type { ApiApp } from '../src/server/platform/http/app-env.js';
import type { ServiceDeps } from '../src/server/platform/context.js';
import type { ClockTimer } from '../src/server/platform/time.js';
import type { DemoSiteState } from './site-state.js';

const FACE_ID = /^r[a-z0-9]{1,63}$/;
/** The face name the demo gives its visitors' faces: the sweep deletes only those. */
export const DEMO_FACE_NAME = 'Demo visitor';
/** How long a visitor's face is kept. */
export const DEMO_FACE_HOURS = 24;
const SWEEP_MS = 10 * 60_000;

/** What the visitor agrees to, word for word as the page shows it; a new wording gets a new version. */
export const DEMO_CONSENT = {
  version: '2026-11-27',
  text:
    "This is my face, or I have its owner's consent to make a talking face of it. I agree that this demo keeps " +
    'my clip or photo until the face is learnt (at most a day), and the face made from it (a still, a 3-second ' +
    'silent preview and its animation) for one day, unless I delete it sooner.',
} as const;

const PURPOSE = 'demo-face-visitor';
const sameToken = (deps: ServiceDeps, faceId: string, token: string | undefined) => !!token && deps.secrets.verify(PURPOSE, faceId, token);

export function demoFaceRoutes(app: ApiApp, deps: ServiceDeps, site: DemoSiteState): void {
  const call = (method: string, path: string, body?: BodyInit, contentType = 'application/json') =>
    fetch(deps.config.publicUrl + path, { method, headers: { 'x-api-key': site.key, 'content-type': contentType }, body });

  app.get('/demo/api/face/consent', (c) => c.json({ ...DEMO_CONSENT, kept_hours: DEMO_FACE_HOURS }));

  app.post('/demo/api/face', async (c) => {
    if (c.req.query('consent') !== DEMO_CONSENT.version)
      return c.json({ error: "consent required: a face may only be made of yourself or with its owner's consent" }, 400);
    const name = (c.req.query('name') ?? '').trim().slice(0, 100);
    const upload = await call('POST', '/v2/uploads', await c.req.arrayBuffer(), c.req.header('content-type') ?? '');
    const uploaded = (await upload.json()) as { url?: string; error?: string };
    if (!upload.ok || !uploaded.url) return c.json({ error: uploaded.error ?? 'upload failed' }, upload.status === 413 ? 413 : 400);
    const consent = {
      given_by: name ? `${name} (a visitor of the demo)` : 'an unnamed visitor of the demo',
      text: DEMO_CONSENT.text,
      given_at: deps.clock.now().toISOString(),
    };
    const face = await call('POST', '/v2/faces', JSON.stringify({ face_name: DEMO_FACE_NAME, train_video_url: uploaded.url, consent }));
    const body = (await face.json()) as { face_id?: string };
    if (!face.ok || !body.face_id) return c.json(body, face.status as 200);
    return c.json({ face_id: body.face_id, visitor_token: deps.secrets.sign(PURPOSE, body.face_id), kept_hours: DEMO_FACE_HOURS }, 200);
  });

  /** The face id of the path, when the request carries the visitor token its creation answered. */
  const visitorsFace = (c: { req: { param(name: string): string | undefined; header(name: string): string | undefined } }) => {
    const id = c.req.param('id') ?? '';
    return FACE_ID.test(id) && sameToken(deps, id, c.req.header('x-face-token')) ? id : null;
  };
  const notYours = { error: 'not your face: only the visitor who made it (with the token its creation answered) may use it' };

  app.get('/demo/api/face/:id', async (c) => {
    const id = visitorsFace(c);
    if (!id) return c.json(notYours, 404);
    const r = await call('GET', `/v2/faces/${id}`);
    const f = (await r.json()) as Record<string, unknown>;
    return c.json(
      r.ok
        ? {
            face_id: f.face_id,
            status: f.status,
            training_progress: f.training_progress,
            error_message: f.error_message,
            created_at: f.created_at,
          }
        : f,
      r.status as 200,
    );
  });

  app.delete('/demo/api/face/:id', async (c) => {
    const id = visitorsFace(c);
    if (!id) return c.json(notYours, 404);
    const r = await call('DELETE', `/v2/faces/${id}`);
    return c.json(await r.json(), r.status as 200);
  });

  app.post('/demo/api/face/:id/conversation', async (c) => {
    const id = visitorsFace(c);
    if (!id) return c.json(notYours, 404);
    if (!site.state) return c.json({ error: 'demo not seeded' }, 503);
    const r = await call(
      'POST',
      '/v2/conversations',
      JSON.stringify({
        pal_id: site.state.fullPalId,
        face_id: id,
        conversation_name: 'Your face demo',
        custom_greeting: 'Hello! This is your face speaking. Ask me anything.',
        properties: { max_call_duration: 300, participant_left_timeout: 30 },
      }),
    );
    const body = (await r.json()) as Record<string, unknown>;
    return c.json(r.ok ? { conversation_url: body.conversation_url, meeting_token: body.meeting_token } : body, r.status as 200);
  });
}

/** Deletes the demo's visitors' faces older than DEMO_FACE_HOURS (their files go with them); returns how many. */
export async function sweepDemoFaces(deps: ServiceDeps, site: DemoSiteState, ownerId: number): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - DEMO_FACE_HOURS * 3600_000);
  const old = await deps.db
    .selectFrom('faces')
    .select('face_id')
    .where('owner_id', '=', ownerId)
    .where('face_name', '=', DEMO_FACE_NAME)
    .where('face_type', '=', 'user')
    .where('created_at', '<', before)
    .limit(100)
    .execute();
  let deleted = 0;
  for (const { face_id } of old) {
    const r = await fetch(`${deps.config.publicUrl}/v2/faces/${face_id}`, { method: 'DELETE', headers: { 'x-api-key': site.key } });
    if (r.ok) deleted++;
    await r.body?.cancel();
  }
  return deleted;
}

/** Runs the sweep every ten minutes on the service's clock; returns its stop. */
export function startDemoFaceSweep(deps: ServiceDeps, site: DemoSiteState, ownerId: number): () => Promise<void> {
  let running = false;
  const timer: ClockTimer = deps.clock.setInterval(() => {
    if (running) return;
    running = true;
    void sweepDemoFaces(deps, site, ownerId)
      .catch((error: unknown) => deps.log.error('demo face sweep failed', { error: String(error) }))
      .finally(() => (running = false));
  }, SWEEP_MS);
  return async () => deps.clock.clearTimeout(timer);
}
