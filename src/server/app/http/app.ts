// The HTTP app: one error handler, body limits, CORS for public routes, the OpenAPI document and its
// reference page, and every resource module's routes.
import { buildInfo } from '../../platform/version.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { MiddlewareHandler } from 'hono';
import type { ZodError } from 'zod';
import type { ServiceDeps } from '../../platform/context.js';
import type { ResourceModule } from '../../resources/module.js';
import type { ApiApp, AppEnv } from '../../platform/http/app-env.js';
import { ApiError, describeZodError } from '../../platform/http/errors.js';
import { apiReferencePage } from './docs-page.js';
import { servicePage } from './root-page.js';
import { installOps } from '../ops/http.js';
import { securityHeaders } from './page-headers.js';
import { limitBodySize } from '../../platform/http/body-limit.js';
import { databaseUnavailable } from '../../platform/db/unavailable.js';

/** A request that met the database away: the start's refusal code, so the elements know it too. */
export const DATABASE_UNAVAILABLE = 'service_unavailable: the database does not answer; try again in a moment';
const DATABASE_RETRY_SECONDS = '5';
import { isUpload } from '../../resources/uploads/limit.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const NUL_REFUSED = 'invalid_request: text may not contain NUL characters';
const SURROGATE_REFUSED = 'invalid_request: text may not contain lone UTF-16 surrogates';
/** Deeper JSON than any resource needs; recursive validators and jsonb would overflow long before real data gets here. */
/** With the u flag, a surrogate matches only when it is not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
export const MAX_JSON_DEPTH = 64;
const DEPTH_REFUSED = `invalid_request: JSON may nest at most ${MAX_JSON_DEPTH} levels`;

/**
 * One linear pass over a JSON text, before anything parses it: refuses the `\u0000` escape and lone
 * surrogate escapes (PostgreSQL text and jsonb hold neither) and nesting deeper than MAX_JSON_DEPTH.
 * Malformed JSON is left for the parser to report.
 */
export function jsonTextProblem(text: string): string | undefined {
  let depth = 0;
  let inString = false;
  let pendingHigh = false; // the previous string unit was a high-surrogate escape
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (!inString) {
      if (ch === 0x22) inString = true;
      else if (ch === 0x5b || ch === 0x7b) {
        if (++depth > MAX_JSON_DEPTH) return DEPTH_REFUSED;
      } else if (ch === 0x5d || ch === 0x7d) depth--;
      continue;
    }
    let unit = -1; // a UTF-16 unit this step contributes to the string, -1 for none
    if (ch === 0x22) {
      if (pendingHigh) return SURROGATE_REFUSED;
      inString = false;
      continue;
    }
    if (ch === 0x5c) {
      const next = text.charCodeAt(++i);
      if (next === 0x75) {
        const hex = text.slice(i + 1, i + 5);
        i += 4;
        unit = /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : 0x41;
        if (unit === 0) return NUL_REFUSED;
      } else unit = 0x41;
    } else unit = ch;
    if (unit === 0) return NUL_REFUSED;
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    if (isLow && !pendingHigh) return SURROGATE_REFUSED;
    if (pendingHigh && !isLow) return SURROGATE_REFUSED;
    pendingHigh = isHigh;
  }
  return undefined;
}

/** Refused in the path, the query and JSON bodies before anything reads them. */
const refuseUnsafeText: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname + url.search);
  } catch {
    return c.json({ error: 'invalid_request: the address is not valid percent-encoding' }, 400);
  }
  if (decoded.includes('\0')) return c.json({ error: NUL_REFUSED }, 400);
  if (LONE_SURROGATE.test(decoded)) return c.json({ error: SURROGATE_REFUSED }, 400);
  if (/json/i.test(c.req.header('content-type') ?? '')) {
    const problem = jsonTextProblem(await c.req.text());
    if (problem) return c.json({ error: problem }, 400);
  }
  await next();
};

export function createApp(deps: ServiceDeps, modules: ResourceModule[]): ApiApp {
  const app: ApiApp = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json({ error: describeZodError(result.error as ZodError) }, 400);
      return undefined;
    },
  });

  installOps(app, deps); // request ids, request logs and metrics wrap everything below; /readyz, /metrics
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  // Every body, not only the API's: an unknown path must not read 400 MiB before its 404.
  // POST /v2/uploads has its own, larger bound (resources/uploads/limit.ts), checked after the key.
  const bodyBound = limitBodySize(MAX_BODY_BYTES, (c) =>
    c.json({ error: `payload_too_large: bodies are limited to ${MAX_BODY_BYTES} bytes` }, 413, { connection: 'close' }),
  );
  app.use('*', (c, next) => (isUpload(c.req.method, c.req.path, c.req.header('content-type')) ? next() : bodyBound(c, next)));
  app.use('*', securityHeaders);
  app.use('*', refuseUnsafeText);
  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'x-api-key' });

  app.get('/healthz', (c) => c.json({ ok: true, version: buildInfo().version, instance: deps.instanceId }));
  for (const module of modules) module.routes?.(app, deps);

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'palkit API',
      version: '2.0.0',
      description:
        'Keyed REST API of the palkit companion service (PALs, faces, skills, deployments, conversations, documents, memory stores, guardrails, connectors, videos, speech) and the public endpoints the elements call.',
    },
    servers: [{ url: deps.config.publicUrl }],
  });
  app.get('/docs', (c) => c.html(apiReferencePage()));
  app.get('/', (c) => c.html(servicePage(deps.config.publicUrl)));

  app.notFound((c) => c.json({ error: `not_found: no route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.body, error.status, error.headers);
    if (error instanceof HTTPException) {
      const status = error.status;
      const message = /json/i.test(error.message) ? 'malformed_json: the request body is not valid JSON' : error.message || 'bad_request';
      if (status === 401) return c.json({ message }, 401);
      return c.json({ error: message }, status);
    }
    if (databaseUnavailable(error)) {
      deps.log.error('the database does not answer', {
        request_id: c.get('requestId'),
        path: new URL(c.req.url).pathname,
        error: error instanceof Error ? error.message : String(error),
      });
      return c.json({ error: DATABASE_UNAVAILABLE }, 503, { 'retry-after': DATABASE_RETRY_SECONDS });
    }
    deps.log.error('unhandled error', {
      request_id: c.get('requestId'),
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      error: error instanceof Error ? error.message : String(error),
    });
    return c.json({ error: 'internal_error' }, 500);
  });
  return app;
}
