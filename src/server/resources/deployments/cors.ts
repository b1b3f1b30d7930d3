// CORS and origin rules of the public init/start endpoints. Widget and embed deployments may list
// allowed origins (empty: any); the service's own origin (landing pages at {public_url}/d/{id}, the
// portal preview) is always allowed. The origin rule is enforced by init (a page elsewhere cannot load
// the element) and start; CORS lets every page read the answers (a refusal must be readable as
// `origin_not_allowed` so the element can say why). Responses vary by Origin.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/http/app-env.js';
import type { DeploymentRow } from './repository.js';

export function ownOrigin(publicUrl: string): string {
  return new URL(publicUrl).origin;
}

/** May a page on `origin` start a call? (No Origin header: not a browser page on a listed site → refused when a list exists.) */
export function originMayStart(
  row: Pick<DeploymentRow, 'channel' | 'allowed_origins'>,
  origin: string | undefined,
  publicUrl: string,
): boolean {
  if (row.channel === 'landing-page' || row.allowed_origins.length === 0) return true;
  if (!origin) return false;
  return origin === ownOrigin(publicUrl) || row.allowed_origins.includes(origin);
}

/**
 * May a page on `origin` load the element (init)? As for a start, except that a request without an Origin
 * header is let through: browsers send one on every cross-origin request, so it is no page on another site.
 */
export function originMayLoad(
  row: Pick<DeploymentRow, 'channel' | 'allowed_origins'>,
  origin: string | undefined,
  publicUrl: string,
): boolean {
  return origin === undefined || originMayStart(row, origin, publicUrl);
}

function corsHeaders(c: Context<AppEnv>): Record<string, string> {
  const origin = c.req.header('origin');
  const headers: Record<string, string> = { Vary: 'Origin' };
  if (origin) {
    headers['Access-Control-Allow-Origin'] = origin;
    headers['Access-Control-Expose-Headers'] = 'Retry-After';
  }
  return headers;
}

/** Answers preflights and adds the CORS headers to init/start responses (errors included). */
export const publicCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'OPTIONS') {
    const headers = corsHeaders(c);
    if (headers['Access-Control-Allow-Origin']) {
      headers['Access-Control-Allow-Methods'] = 'GET, POST, OPTIONS';
      headers['Access-Control-Allow-Headers'] = c.req.header('access-control-request-headers') ?? 'content-type';
      headers['Access-Control-Max-Age'] = '600';
    }
    return c.body(null, 204, headers);
  }
  // Set before the handler runs, so its answer (or the error handler's) is made with them: setting a
  // header on a finished answer makes Hono copy it into a new one, streamed instead of sent at once.
  for (const [name, value] of Object.entries(corsHeaders(c))) c.header(name, value);
  await next();
};
