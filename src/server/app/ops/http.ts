// What operators need from the HTTP side: a request id on every request (taken from `x-request-id`
// when it looks sane, echoed back), one JSON log line per request, latency by route pattern, counts of
// conversation starts and refusals, the refusal of new starts while the service drains, `/readyz` and
// `/metrics`.
import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { requestId } from 'hono/request-id';
import { routePath } from 'hono/route';
import type { Context } from 'hono';
import { SHUTTING_DOWN, type ServiceDeps } from '../../platform/context.js';
import type { ApiApp, AppEnv } from '../../platform/http/app-env.js';

/** The two ways a conversation starts: a deployment's public start and the keyed create. */
function startKind(method: string, path: string): 'deployment' | 'api' | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v2/conversations') return 'api';
  if (/^\/v2\/deployments\/[^/]+\/start\/?$/.test(path)) return 'deployment';
  return undefined;
}

/** The error code of a refusal: the part of `error` (or `message`) before the colon, else the status. */
async function refusalReason(res: Response): Promise<string> {
  try {
    const body = (await res.clone().json()) as { error?: unknown; message?: unknown };
    const text = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : '';
    const code = text.split(':', 1)[0]!.trim();
    if (/^[a-z][a-z0-9_]{0,47}$/.test(code)) return code;
  } catch {
    /* not JSON */
  }
  return `http_${res.status}`;
}

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Installs the middleware (first, so it wraps every other) and the `/readyz` and `/metrics` routes. */
export function installOps(app: ApiApp, deps: ServiceDeps): void {
  const { log, metrics, lifecycle } = deps;
  app.use('*', requestId({ limitLength: 128 }));
  app.use('*', async (c, next) => {
    const started = performance.now();
    const path = new URL(c.req.url).pathname;
    const via = startKind(c.req.method, path);
    if (via && lifecycle.draining) {
      metrics.startRefusals.inc({ via, reason: 'shutting_down' });
      return c.json({ error: SHUTTING_DOWN }, 503, { 'retry-after': '5' });
    }
    await next();
    const status = c.res.status;
    const route = routeLabel(c, status);
    const seconds = (performance.now() - started) / 1000;
    metrics.httpRequestDuration.observe({ method: c.req.method, route, status: String(status) }, seconds);
    if (via) {
      if (status >= 200 && status < 300) metrics.conversationStarts.inc({ via });
      else if (status >= 400) metrics.startRefusals.inc({ via, reason: await refusalReason(c.res) });
    }
    const fields = {
      request_id: c.get('requestId'),
      method: c.req.method,
      route,
      path,
      status,
      duration_ms: Math.round(seconds * 10_000) / 10,
    };
    if (PROBES.has(path)) log.debug('request', fields);
    else log.info('request', fields);
  });

  app.get('/readyz', async (c) => {
    c.header('cache-control', 'no-store');
    if (lifecycle.draining) return c.json({ error: 'shutting_down: this instance is shutting down' }, 503);
    if (!deps.jobs.isRunning()) return c.json({ error: 'not_ready: the job runner is not running' }, 503);
    for (const check of lifecycle.readiness) {
      const reason = check();
      if (reason) return c.json({ error: `not_ready: ${reason}` }, 503);
    }
    try {
      await Promise.race([
        sql`select 1`.execute(deps.db),
        new Promise((_, reject) => deps.clock.setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
    } catch (error) {
      log.error('readiness check failed', {
        request_id: c.get('requestId'),
        error: error instanceof Error ? error.message : String(error),
      });
      return c.json({ error: 'not_ready: the database does not answer' }, 503);
    }
    return c.json({ ok: true });
  });

  app.get('/metrics', async (c) => {
    const token = deps.config.metricsToken;
    if (token) {
      const given = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim() ?? '';
      if (!given || !sameSecret(given, token))
        return c.json({ message: 'unauthorized: /metrics needs the bearer token of PALKIT_METRICS_TOKEN' }, 401);
    }
    const body = await metrics.registry.metrics();
    return c.body(body, 200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
  });
}

/** The route pattern that answered (`/v2/pals/:pal_id`), never the raw path; `unmatched` for 404s no route took. */
function routeLabel(c: Context<AppEnv>, status: number): string {
  const route = routePath(c) || '*';
  if (status === 404 && (route === '*' || route.endsWith('/*'))) return 'unmatched';
  return route;
}
