// CORS and origin rules of the public init/start endpoints. Widget and embed deployments may list
// allowed origins (empty: any); the service's own origin (landing pages at {public_url}/d/{id}, the
// portal preview) is always allowed. Responses vary by Origin.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/app-env.js';
import { findDeployment, type DeploymentRow } from './repository.js';

export function ownOrigin(publicUrl: string): string {
  return new URL(publicUrl).origin;
}

/** May a page on `origin` start a call? (No Origin header: not a browser page on a listed site → refused when a list exists.) */
export function originMayStart(row: Pick<DeploymentRow, 'channel' | 'allowed_origins'>, origin: string | undefined, publicUrl: string): boolean {
  if (row.channel === 'landing-page' || row.allowed_origins.length === 0) return true;
  if (!origin) return false;
  return origin === ownOrigin(publicUrl) || row.allowed_origins.includes(origin);
}

// The row a handler already loaded, so the CORS step after it needs no second query.
const loaded = new WeakMap<Request, Pick<DeploymentRow, 'channel' | 'allowed_origins'> | null>();
export function rememberDeployment(c: Context<AppEnv>, row: DeploymentRow | undefined): void {
  loaded.set(c.req.raw, row ?? null);
}

function corsHeaders(c: Context<AppEnv>, row: Pick<DeploymentRow, 'channel' | 'allowed_origins'> | null | undefined): Record<string, string> {
  const origin = c.req.header('origin');
  const headers: Record<string, string> = { Vary: 'Origin' };
  // Unknown deployment: let the page read the 404 so the element can say so.
  if (origin && (!row || originMayStart(row, origin, c.get('deps').config.publicUrl))) {
    headers['Access-Control-Allow-Origin'] = origin;
    headers['Access-Control-Expose-Headers'] = 'Retry-After';
  }
  return headers;
}

/** Answers preflights and adds the CORS headers to init/start responses (errors included). */
export const publicCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = c.req.param('deployment_id') ?? '';
  if (c.req.method === 'OPTIONS') {
    const row = /^d[a-z0-9]{1,63}$/.test(id) ? await findDeployment(c.get('deps').db, id) : undefined;
    const headers = corsHeaders(c, row);
    if (headers['Access-Control-Allow-Origin']) {
      headers['Access-Control-Allow-Methods'] = 'GET, POST, OPTIONS';
      headers['Access-Control-Allow-Headers'] = c.req.header('access-control-request-headers') ?? 'content-type';
      headers['Access-Control-Max-Age'] = '600';
    }
    return c.body(null, 204, headers);
  }
  await next();
  if (!c.req.header('origin')) {
    c.header('Vary', 'Origin');
    return;
  }
  const row = loaded.has(c.req.raw) ? loaded.get(c.req.raw) : undefined;
  for (const [name, value] of Object.entries(corsHeaders(c, row))) c.header(name, value);
};
