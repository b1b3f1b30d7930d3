// The customer demo site, served by the same process as the service under /demo. Its /demo/api routes
// play the customer's own backend: they hold the API key server-side (never in a page), create a
// conversation for the own-surface page, receive and verify signed callbacks, and push canvas cards.
import { timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { getCookie, setCookie } from 'hono/cookie';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageRoot } from '../src/server/platform/package-root.js';
import type { ResourceModule } from '../src/server/resources/module.js';
import { verifyWebhook } from '../src/server/platform/webhooks/signing.js';
import { DEMO_OWNER } from './seed.js';
import { demoFaceRoutes, startDemoFaceSweep } from './face-routes.js';
import type { DemoSiteState } from './site-state.js';

export type { DemoSiteState };

const DEMO_COOKIE = 'palkit_demo';

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

// From the repository root (this file's, or the bundled demo service's at dist/demo-service), whatever the cwd.
const repoRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
const roots = { site: join(repoRoot, 'demo', 'site'), media: join(repoRoot, 'demo', 'media'), built: join(repoRoot, 'dist', 'demo') };
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

async function serveFile(root: string, relative: string): Promise<Response | undefined> {
  const path = normalize(join(root, relative));
  if (!path.startsWith(root)) return undefined;
  try {
    const bytes = await readFile(path);
    return new Response(bytes, {
      headers: { 'content-type': types[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-cache' },
    });
  } catch {
    return undefined;
  }
}

interface ReceivedCallback {
  received_at: string;
  verified: boolean;
  webhook_id: string;
  body: unknown;
}

export function demoSiteModule(site: DemoSiteState): ResourceModule {
  const callbacks: ReceivedCallback[] = [];
  const api = (deps: { config: { publicUrl: string } }, method: string, path: string, body?: unknown) =>
    fetch(deps.config.publicUrl + path, {
      method,
      headers: { 'x-api-key': site.key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  return {
    name: 'demo-site',
    // The visitors' faces live a day (face-routes.ts).
    attach: (_server, deps) => startDemoFaceSweep(deps, site, DEMO_OWNER),
    routes(app, deps) {
      app.get('/', (c) => c.redirect('/demo/'));
      app.get('/demo', (c) => c.redirect('/demo/'));
      // The backend routes give out transcripts and visitor context and push cards: only to pages opened
      // from the URLs this run printed (their demo_key becomes a cookie of the demo's pages), or with the
      // x-demo-key header. The callback receiver stays open: the service posts to it, signed.
      app.use('/demo/*', async (c, next) => {
        const query = c.req.query('demo_key');
        const callbackDelivery = c.req.method === 'POST' && c.req.path === '/demo/api/callbacks';
        if (c.req.path.startsWith('/demo/api/') && !callbackDelivery) {
          const given = c.req.header('x-demo-key') ?? getCookie(c, DEMO_COOKIE) ?? query;
          if (!sameSecret(given, site.demoKey))
            return c.json({ error: 'demo_key_required: open the demo from the link npm start printed' }, 403);
        }
        await next();
        // Set on the answer as sent (a page's file is a Response of its own).
        if (sameSecret(query, site.demoKey)) setCookie(c, DEMO_COOKIE, site.demoKey, { path: '/demo', httpOnly: true, sameSite: 'Strict' });
      });
      app.get('/demo/config.js', (c) =>
        c.body(`window.PALKIT_DEMO = ${JSON.stringify({ deployments: site.state?.deployments ?? null })};\n`, 200, {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'no-store',
        }),
      );

      app.post('/demo/api/conversation', async (c) => {
        if (!site.state) return c.json({ error: 'demo not seeded' }, 503);
        const r = await api(deps, 'POST', '/v2/conversations', {
          pal_id: site.state.fullPalId,
          conversation_name: 'Own surface demo',
          callback_url: `${deps.config.publicUrl}/demo/api/callbacks`,
          properties: { max_call_duration: 600, participant_left_timeout: 30 },
        });
        return c.json(await r.json(), r.status as 200);
      });

      app.post('/demo/api/callbacks', async (c) => {
        const raw = await c.req.text();
        const secret = await deps.webhooks.secretFor(DEMO_OWNER);
        const headers = {
          id: c.req.header('webhook-id') ?? '',
          timestamp: c.req.header('webhook-timestamp') ?? '',
          signature: c.req.header('webhook-signature') ?? '',
        };
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          /* shown raw */
        }
        callbacks.unshift({
          received_at: new Date().toISOString(),
          verified: verifyWebhook(secret, headers, raw),
          webhook_id: headers.id,
          body,
        });
        callbacks.length = Math.min(callbacks.length, 200);
        return c.json({ ok: true });
      });
      app.get('/demo/api/callbacks', (c) => c.json({ data: callbacks }));

      app.get('/demo/api/conversations', async (c) => {
        const r = await api(deps, 'GET', '/v2/conversations?status=active&limit=20');
        return c.json(await r.json(), r.status as 200);
      });
      app.post('/demo/api/push', async (c) => {
        const { conversation_id, message } = await c.req.json<{ conversation_id: string; message: unknown }>();
        if (typeof conversation_id !== 'string' || !/^[a-z0-9]+$/.test(conversation_id))
          return c.json({ error: 'conversation_id required' }, 400);
        const r = await api(deps, 'POST', `/v2/conversations/${conversation_id}/events`, message);
        return c.json(await r.json().catch(() => ({})), r.status as 200);
      });

      demoFaceRoutes(app, deps, site);

      app.get('/demo/media/:file', async (c) => (await serveFile(roots.media, c.req.param('file'))) ?? c.notFound());
      app.get('/demo/*', async (c) => {
        let rel = c.req.path.slice('/demo/'.length) || 'index.html';
        if (rel.endsWith('/')) rel += 'index.html';
        return (await serveFile(roots.built, rel)) ?? (await serveFile(roots.site, rel)) ?? c.notFound();
      });
    },
  };
}
